import type { RequestContext } from '../../../common/context.ts'
import { ApiError, badRequest, type ErrorItem } from '../../../common/errors.ts'
import { type Clock, formatTimestamp, parseTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { issueToken, tokenSecretTaken } from '../../auth/issue-token.ts'
import { formatScopes, parseScopes } from '../../auth/scopes.ts'
import { createInstance } from '../../compute/instances/instances.service.ts'
import type { InterfaceInput } from '../../compute/interfaces/interfaces.schemas.ts'
import type { UpdateGrantsBody } from '../../grants/grants.schemas.ts'
import { changeUserGrants } from '../../grants/grants.service.ts'
import { findDeployableImage, insertPrivateImage } from '../../images/images.service.ts'
import { addSshKey } from '../../profile/ssh-keys/ssh-keys.service.ts'
import { findRegion } from '../../regions/regions.service.ts'
import { addUser, createAccountWithOwner } from '../../users/users.service.ts'
import type { UserRow } from '../../users/users.table.ts'
import { createVpc } from '../../vpcs/vpcs.service.ts'
import { writeStoredClock } from '../clock-store.ts'
import type { ControlContext } from '../control-context.ts'
import { saveAccountBaseline } from '../state.service.ts'
import type { SeedAccount, SeedFile, SeedUser } from './seed.schema.ts'
import { parseSeed } from './seed-parse.ts'

/** A service's refusal, with each field placed where it is in the seed file. */
async function at<T>(path: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work()
  } catch (error) {
    if (!(error instanceof ApiError)) throw error
    const errors: ErrorItem[] = error.errors.map((e) => ({
      reason: e.reason,
      field: e.field === undefined ? path : `${path}.${e.field}`,
    }))
    throw new ApiError(
      error.code === 'not_found' || error.code === 'conflict' ? 'bad_request' : error.code,
      errors,
    )
  }
}

/** A clock that starts at the seed's instant and runs on: what the seeded rows are stamped with. */
function seedClock(base: Clock, atMs: number | undefined): Clock {
  if (atMs === undefined) return base
  const offset = atMs - Date.now()
  return { now: () => new Date(Date.now() + offset) }
}

function actorFor(user: UserRow, accountUuid: string): Actor {
  const scopes = parseScopes('*')
  if (scopes === undefined) throw new Error('the * scope does not parse')
  return {
    tokenId: 0,
    clientId: null,
    authorizedAppId: null,
    tokenExpiry: null,
    scopes,
    scopeText: '*',
    accountId: user.account_id,
    accountUuid,
    user,
  }
}

export interface SeedResult {
  accounts: Array<{ id: number; usernames: string[] }>
  clock?: string
}

/** Loads a seed file's text: all of it in one transaction, or nothing (400 naming each place). */
export async function applySeedText(ctx: ControlContext, text: string): Promise<SeedResult> {
  return applySeed(ctx, parseSeed(text, ctx.vocabulary))
}

export async function applySeed(ctx: ControlContext, seed: SeedFile): Promise<SeedResult> {
  let atMs: number | undefined
  if (seed.clock !== undefined) {
    const at = parseTimestamp(seed.clock.at)
    if (at === undefined) throw badRequest('must be a date-time such as 2030-01-01T00:00:00', 'clock.at')
    atMs = Date.parse(`${at}Z`)
  }
  const clock = seedClock(ctx.clock, atMs)
  const accounts = await inTransaction(ctx.db, async (trx) => {
    const done: SeedResult['accounts'] = []
    for (const [i, account] of (seed.accounts ?? []).entries()) {
      done.push(
        await seedAccount(trx, clock, account, `accounts[${i}]`, ctx.vocabulary.defaultInstanceLabelPrefix),
      )
    }
    if (atMs !== undefined) await writeStoredClock(trx, { offsetMs: atMs - Date.now() })
    return done
  })
  if (atMs !== undefined) await ctx.syncClock()
  // What each account's reset returns to.
  for (const account of accounts) await saveAccountBaseline(ctx.db, account.id)
  return { accounts, ...(atMs !== undefined && { clock: formatTimestamp(ctx.clock.now()) }) }
}

async function seedAccount(
  db: Db,
  clock: Clock,
  seed: SeedAccount,
  path: string,
  /** What an instance without a label is named after, as the API names one (`<prefix><id>`). */
  labelPrefix: string,
) {
  const [owner, ...others] = seed.users
  if (owner === undefined) throw badRequest('must name at least one user', `${path}.users`)
  if (owner.restricted === true)
    throw badRequest(
      'the first user owns the account: it cannot be restricted',
      `${path}.users[0].restricted`,
    )
  const { account, user } = await at(`${path}.users[0]`, () =>
    createAccountWithOwner(db, clock, { username: owner.username, email: owner.email }),
  )
  const ctx: RequestContext = { db, clock, actor: actorFor(user, account.uuid) }
  const users: Array<[SeedUser, UserRow, string]> = [[owner, user, `${path}.users[0]`]]
  for (const [j, other] of others.entries()) {
    const userPath = `${path}.users[${j + 1}]`
    const row = await at(userPath, () =>
      addUser(db, clock, account.id, {
        username: other.username,
        email: other.email,
        restricted: other.restricted ?? false,
      }),
    )
    users.push([other, row, userPath])
  }

  const labels = {
    vpc: new Map<string, number>(),
    compute: new Map<string, number>(),
    image: new Map<string, number>(),
  }
  const subnets = new Map<string, number>()
  for (const [j, vpc] of (seed.vpcs ?? []).entries()) {
    const created = await at(`${path}.vpcs[${j}]`, () => createVpc(ctx, vpc))
    labels.vpc.set(created.label, created.id)
    for (const subnet of created.subnets) subnets.set(`${created.label}/${subnet.label}`, subnet.id)
  }
  for (const [j, image] of (seed.images ?? []).entries()) {
    const row = await at(`${path}.images[${j}]`, async () => {
      const region = image.region ?? 'us-east'
      if ((await findRegion(ctx.db, region)) === undefined) throw badRequest('Region not found', 'region')
      return insertPrivateImage(
        ctx,
        {
          label: image.label,
          description: image.description,
          cloudInit: image.cloud_init,
          tags: image.tags,
          region,
          status: 'available',
          size: image.size ?? 0,
        },
        formatTimestamp(clock.now()),
      )
    })
    labels.image.set(row.label, row.id)
  }
  for (const [j, instance] of (seed.instances ?? []).entries()) {
    const instancePath = `${path}.instances[${j}]`
    const { interfaces, ...body } = instance
    const inputs: InterfaceInput[] | undefined = interfaces?.map((iface, k) => {
      const { vpc, subnet, ...rest } = iface
      if (vpc === undefined && subnet === undefined) return rest as InterfaceInput
      const id = subnets.get(`${vpc}/${subnet}`)
      if (id === undefined) {
        throw badRequest(
          `no subnet "${subnet}" in a VPC "${vpc}" of this account in the seed`,
          `${instancePath}.interfaces[${k}].subnet`,
        )
      }
      return { ...rest, subnet_id: id } as InterfaceInput
    })
    const created = await at(instancePath, () =>
      createInstance(
        ctx,
        { ...body, ...(inputs !== undefined && { interfaces: inputs }) },
        { find: findDeployableImage },
        labelPrefix,
      ),
    )
    labels.compute.set(created.label, created.id)
  }

  for (const [seedUser, row, userPath] of users) {
    const userCtx: RequestContext = { db, clock, actor: actorFor(row, account.uuid) }
    for (const [k, token] of (seedUser.tokens ?? []).entries()) {
      await seedToken(db, clock, row.id, token, `${userPath}.tokens[${k}]`)
    }
    for (const [k, key] of (seedUser.ssh_keys ?? []).entries()) {
      await at(`${userPath}.ssh_keys[${k}]`, () => addSshKey(userCtx, key))
    }
    if (seedUser.grants !== undefined) {
      if (!row.restricted) throw badRequest('only restricted users have grants', `${userPath}.grants`)
      const body: UpdateGrantsBody = seedUser.grants.global ? { global: seedUser.grants.global } : {}
      for (const type of ['vpc', 'compute', 'image'] as const) {
        const grants = seedUser.grants[type]
        if (grants === undefined) continue
        body[type] = grants.map((g, k) => {
          const id = labels[type].get(g.label)
          if (id === undefined)
            throw badRequest(
              `no ${type} labelled "${g.label}" in this account's seed`,
              `${userPath}.grants.${type}[${k}].label`,
            )
          return { id, permissions: g.permissions }
        })
      }
      await at(`${userPath}.grants`, () => changeUserGrants(db, row, body))
    }
  }
  return { id: account.id, usernames: users.map(([, row]) => row.username) }
}

async function seedToken(
  db: Db,
  clock: Clock,
  userId: number,
  token: NonNullable<SeedUser['tokens']>[number],
  path: string,
): Promise<void> {
  const secret = token.token.toLowerCase()
  const scopes = parseScopes(token.scopes ?? '*')
  if (scopes === undefined) throw badRequest('is not a valid scope list', `${path}.scopes`)
  let expiry: string | null = null
  if (token.expiry !== undefined) {
    expiry = parseTimestamp(token.expiry) ?? null
    if (expiry === null) throw badRequest('must be a date-time such as 2030-01-01T00:00:00', `${path}.expiry`)
  }
  if (await tokenSecretTaken(db, secret)) throw badRequest('this token is already in use', `${path}.token`)
  await issueToken(db, {
    userId,
    label: token.label ?? 'seed',
    scopes: formatScopes(scopes),
    created: formatTimestamp(clock.now()),
    expiry,
    secret,
  })
}

/** The seed file given at start (CLOUDPLANE_SEED_FILE): loaded before the server reports ready. */
export async function applySeedAtStart(ctx: ControlContext, text: string): Promise<SeedResult> {
  return applySeedText(ctx, text)
}
