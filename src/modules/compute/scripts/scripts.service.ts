import { inContextTransaction, type PublicContext, type RequestContext } from '../../../common/context.ts'
import { ApiError, badRequest, ErrorCollector, forbidden, notFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { Actor } from '../../auth/actor.ts'
import { hasScope } from '../../auth/scopes.ts'
import { recordEvents } from '../../events/events.service.ts'
import { assertEntityGrant, assertGlobalGrant, grantToCreator } from '../../grants/authorize.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { deleteEntityGrants } from '../../grants/grants.service.ts'
import type { DeployImages } from '../instances/deploy-image.ts'
import { gravatarId } from './gravatar.ts'
import { scriptEvent } from './script-events.ts'
import * as repo from './scripts.repository.ts'
import type { CreateScriptBody, Script, UpdateScriptBody } from './scripts.schemas.ts'
import type { ScriptRow } from './scripts.table.ts'
import { checkUserData, parseUserDefinedFields, type UserDefinedField } from './user-defined-fields.ts'

export interface ScriptIds {
  scriptId: number
}

/** The `images` entry that makes a script deployable with every image. */
export const ANY_IMAGE = 'any/all'

function toScript(row: ScriptRow, accountId: number | null): Script {
  return {
    id: row.id,
    username: row.username,
    user_gravatar_id: row.user_gravatar_id,
    label: row.label,
    description: row.description,
    ordinal: row.ordinal,
    logo_url: row.logo_url,
    images: JSON.parse(row.images) as string[],
    deployments_total: row.deployments_total,
    deployments_active: row.deployments_active,
    is_public: row.is_public,
    mine: row.account_id !== null && row.account_id === accountId,
    created: row.created,
    updated: row.updated,
    rev_note: row.rev_note,
    script: row.script,
    user_defined_fields: JSON.parse(row.user_defined_fields) as UserDefinedField[],
  }
}

/**
 * The one way to reach a script. Reading: a public script is anyone's to read; one of the
 * caller's account needs a restricted caller's read grant; any other is not found (404).
 * Changing: only the account's own, with `read_write` on it (a public script of another account
 * is refused, 403), locked until the transaction ends (docs/decisions.md#public-scripts).
 */
export async function accessScript(
  ctx: RequestContext,
  { scriptId }: ScriptIds,
  permission: Permission,
): Promise<ScriptRow> {
  const { db, actor } = ctx
  if (permission === 'read_write') {
    const own = await repo.lockAccountScript(db, actor.accountId, scriptId)
    if (own === undefined) {
      if (await repo.findVisibleScript(db, null, scriptId)) throw forbidden()
      throw notFound()
    }
    await assertEntityGrant(db, actor, 'script', own.id, 'read_write')
    return own
  }
  const row = await repo.findVisibleScript(db, actor.accountId, scriptId)
  if (row === undefined) throw notFound()
  if (row.account_id === actor.accountId && !row.is_public) {
    await assertEntityGrant(db, actor, 'script', row.id, 'read_only')
  }
  return row
}

/**
 * The caller, when its token may read the account's scripts. The reads are public, so the route
 * lets any token through; one without `stackscripts:read_only` sees what no token sees (as for
 * images, docs/decisions.md#images-without-a-token): a script's source may hold secrets.
 */
const scriptReader = (ctx: PublicContext): Actor | undefined =>
  ctx.actor != null && hasScope(ctx.actor.scopes, 'stackscripts:read_only') ? ctx.actor : undefined

const callerAccount = (ctx: PublicContext) => scriptReader(ctx)?.accountId ?? null

/** Public scripts, and with a token the account's own (a restricted user's granted ones). */
export async function listScripts(ctx: PublicContext, query: ListQuery): Promise<PageResult<Script>> {
  const user = scriptReader(ctx)?.user
  const accountId = callerAccount(ctx)
  const scope = { accountId, restrictedUserId: user?.restricted ? user.id : null }
  const rows = await repo.listScripts(ctx.db, scope, query.page, query.filter)
  return mapPage(rows, (row) => toScript(row, accountId))
}

export async function getScript(ctx: PublicContext, ids: ScriptIds): Promise<Script> {
  const actor = scriptReader(ctx)
  if (actor) return toScript(await accessScript({ ...ctx, actor }, ids, 'read_only'), actor.accountId)
  const row = await repo.findVisibleScript(ctx.db, null, ids.scriptId)
  if (row === undefined) throw notFound()
  return toScript(row, null)
}

/** Every image a script lists must exist for the caller (or be `any/all`). */
async function checkImages(
  ctx: RequestContext,
  images: readonly string[],
  finder: DeployImages,
  errors: ErrorCollector,
): Promise<void> {
  for (const [i, image] of images.entries()) {
    if (image === ANY_IMAGE) continue
    if ((await finder.find(ctx, image)) === undefined) errors.add(`Image ${image} not found`, `images[${i}]`)
  }
}

function checkScriptText(script: string, errors: ErrorCollector): void {
  if (!script.startsWith('#!'))
    errors.add('Script must begin with a shebang (example: #!/bin/bash)', 'script')
}

export async function createScript(
  ctx: RequestContext,
  input: CreateScriptBody,
  images: DeployImages,
): Promise<Script> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    await assertGlobalGrant(db, actor, 'add_scripts')
    const errors = new ErrorCollector()
    checkScriptText(input.script, errors)
    await checkImages(tx, input.images, images, errors)
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const row = await repo.insertScript(db, {
      account_id: actor.accountId,
      catalogue_key: null,
      username: actor.user.username,
      user_gravatar_id: gravatarId(actor.user.email),
      label: input.label,
      description: input.description ?? '',
      ordinal: 0,
      logo_url: '',
      images: JSON.stringify(input.images),
      deployments_total: 0,
      deployments_active: 0,
      is_public: input.is_public ?? false,
      created: now,
      updated: now,
      rev_note: input.rev_note ?? '',
      script: input.script,
      user_defined_fields: JSON.stringify(parseUserDefinedFields(input.script)),
    })
    await grantToCreator(db, actor, 'script', row.id)
    const events = [scriptEvent(actor, 'stackscript_create', row, now)]
    if (row.is_public) events.push(scriptEvent(actor, 'stackscript_publicize', row, now))
    await recordEvents(db, events)
    return toScript(row, actor.accountId)
  })
}

/** Changes the fields sent; a public script stays public (`is_public` can be set, never unset). */
export async function updateScript(
  ctx: RequestContext,
  ids: ScriptIds,
  input: UpdateScriptBody,
  images: DeployImages,
): Promise<Script> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    const current = await accessScript(tx, ids, 'read_write')
    const errors = new ErrorCollector()
    if (input.is_public === false && current.is_public) {
      errors.add('Public Scripts cannot be made private', 'is_public')
    }
    if (input.script !== undefined) checkScriptText(input.script, errors)
    if (input.images !== undefined) await checkImages(tx, input.images, images, errors)
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const row = await repo.updateScript(db, current.id, {
      ...(input.label !== undefined && { label: input.label }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.rev_note !== undefined && { rev_note: input.rev_note }),
      ...(input.images !== undefined && { images: JSON.stringify(input.images) }),
      ...(input.is_public === true && { is_public: true }),
      ...(input.script !== undefined && {
        script: input.script,
        user_defined_fields: JSON.stringify(parseUserDefinedFields(input.script)),
      }),
      updated: now,
    })
    const events = [scriptEvent(actor, 'stackscript_update', row, now)]
    if (row.is_public && !current.is_public)
      events.push(scriptEvent(actor, 'stackscript_publicize', row, now))
    await recordEvents(db, events)
    return toScript(row, actor.accountId)
  })
}

/** Deletes one of the account's private scripts; a public one stays for those who deploy it. */
export async function deleteScript(ctx: RequestContext, ids: ScriptIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessScript(tx, ids, 'read_write')
    if (row.is_public) throw badRequest('Public Scripts cannot be deleted')
    await repo.deleteScript(tx.db, row.id)
    await deleteEntityGrants(tx.db, 'script', row.id)
    await recordEvents(tx.db, [scriptEvent(tx.actor, 'stackscript_delete', row, nowTimestamp(tx.clock))])
  })
}

/**
 * The script an instance is deployed with, checked against the deployment: readable by the
 * caller, usable with the chosen image, and its fields' values (`stackscript_data`) complete and
 * within their choices. Problems go to `errors`, each naming its field
 * (docs/decisions.md#script-fields).
 */
export async function planScriptDeployment(
  ctx: RequestContext,
  input: { stackscriptId: number; data: Readonly<Record<string, string>>; imageId: string | undefined },
  errors: ErrorCollector,
): Promise<ScriptRow | undefined> {
  let script: ScriptRow
  try {
    script = await accessScript(ctx, { scriptId: input.stackscriptId }, 'read_only')
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'not_found') throw error
    errors.add('Script not found', 'stackscript_id')
    return undefined
  }
  if (input.imageId === undefined) {
    errors.add('An image is required to deploy a Script', 'image')
  } else {
    const usable = JSON.parse(script.images) as string[]
    if (!usable.includes(ANY_IMAGE) && !usable.includes(input.imageId)) {
      errors.add(`Script ${script.id} cannot be deployed with image ${input.imageId}`, 'image')
    }
  }
  const fields = JSON.parse(script.user_defined_fields) as UserDefinedField[]
  for (const problem of checkUserData(fields, input.data)) errors.add(problem.reason, problem.field)
  return script
}

/** An instance was deployed with the script (+1), or one deployed with it was deleted (-1). */
export function countScriptDeployment(ctx: RequestContext, scriptId: number, change: 1 | -1): Promise<void> {
  return repo.countDeployment(ctx.db, scriptId, change)
}
