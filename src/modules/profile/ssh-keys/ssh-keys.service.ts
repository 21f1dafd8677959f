import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest, foundOrNotFound, notFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { EventAction } from '../../events/event-builder.ts'
import type { EventEntity } from '../../events/event-types.ts'
import { recordEvent } from '../../events/events.service.ts'
import { profileEvent } from '../profile-events.ts'
import { publicKeyProblem } from './ssh-key-parser.ts'
import * as repo from './ssh-keys.repository.ts'
import type { SshKey } from './ssh-keys.schemas.ts'
import type { SshKeyRow } from './ssh-keys.table.ts'

export function toSshKey(row: SshKeyRow): SshKey {
  return { id: row.id, label: row.label, ssh_key: row.ssh_key, created: row.created }
}

const sshKeyEntity = (row: SshKeyRow): EventEntity => ({
  type: 'user_ssh_key',
  id: row.id,
  label: row.label,
  url: `/v4/profile/sshkeys/${row.id}`,
})

const recordSshKeyEvent = (ctx: RequestContext, action: EventAction, row: SshKeyRow, created: string) =>
  recordEvent(ctx.db, profileEvent(ctx.actor, action, sshKeyEntity(row), created))

/** An SSH key on the caller's profile; anyone else's is not found. */
async function accessSshKey(ctx: RequestContext, { sshKeyId }: { sshKeyId: number }): Promise<SshKeyRow> {
  return foundOrNotFound(await repo.findSshKey(ctx.db, ctx.actor.user.id, sshKeyId))
}

export async function listSshKeys(ctx: RequestContext, query: ListQuery): Promise<PageResult<SshKey>> {
  return mapPage(await repo.listSshKeys(ctx.db, ctx.actor.user.id, query), toSshKey)
}

export async function getSshKey(ctx: RequestContext, ids: { sshKeyId: number }): Promise<SshKey> {
  return toSshKey(await accessSshKey(ctx, ids))
}

/** The key is parsed, then stored exactly as sent (comment and all). */
export async function addSshKey(
  ctx: RequestContext,
  input: { label?: string; ssh_key: string },
): Promise<SshKey> {
  const problem = publicKeyProblem(input.ssh_key)
  if (problem !== undefined) throw badRequest(problem, 'ssh_key')
  return inContextTransaction(ctx, async (tx) => {
    const created = nowTimestamp(tx.clock)
    const row = await repo.insertSshKey(tx.db, {
      userId: tx.actor.user.id,
      label: input.label ?? '',
      sshKey: input.ssh_key,
      created,
    })
    await recordSshKeyEvent(tx, 'user_ssh_key_add', row, created)
    return toSshKey(row)
  })
}

export async function updateSshKey(
  ctx: RequestContext,
  ids: { sshKeyId: number },
  input: { label?: string },
): Promise<SshKey> {
  return inContextTransaction(ctx, async (tx) => {
    const row = await accessSshKey(tx, ids)
    if (input.label === undefined) return toSshKey(row)
    const updated = await repo.updateSshKeyLabel(tx.db, row.id, input.label)
    await recordSshKeyEvent(tx, 'user_ssh_key_update', updated, nowTimestamp(tx.clock))
    return toSshKey(updated)
  })
}

/** Removes the key from the profile only; copies already deployed to instances stay there. */
export async function deleteSshKey(ctx: RequestContext, ids: { sshKeyId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessSshKey(tx, ids)
    if (!(await repo.deleteSshKey(tx.db, row.id))) throw notFound()
    await recordSshKeyEvent(tx, 'user_ssh_key_delete', row, nowTimestamp(tx.clock))
  })
}
