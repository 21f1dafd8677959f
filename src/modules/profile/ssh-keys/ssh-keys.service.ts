import { badRequest, notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../../common/time.ts'
import { compileFilter } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import type { EventEntity } from '../../events/events.repository.ts'
import { recordEvent } from '../../events/events.repository.ts'
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

async function getRow(db: Db, actor: Actor, id: number): Promise<SshKeyRow> {
  const row = await repo.findSshKey(db, actor.user.id, id)
  if (row === undefined) throw notFound()
  return row
}

/** No field of an SSH key is filterable (api-facts 2.2); the header is still checked. */
export async function listSshKeys(
  db: Db,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<SshKey>> {
  compileFilter(filter, {}, dialectOf(db))
  return mapPage(await repo.listSshKeys(db, actor.user.id, page), toSshKey)
}

export async function getSshKey(db: Db, actor: Actor, id: number): Promise<SshKey> {
  return toSshKey(await getRow(db, actor, id))
}

/** The key is parsed, then stored exactly as sent (comment and all). */
export async function addSshKey(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: { label?: string; ssh_key: string },
): Promise<SshKey> {
  const problem = publicKeyProblem(input.ssh_key)
  if (problem !== undefined) throw badRequest(problem, 'ssh_key')
  return inTransaction(db, async (trx) => {
    const created = nowTimestamp(clock)
    const row = await repo.insertSshKey(trx, {
      userId: actor.user.id,
      label: input.label ?? '',
      sshKey: input.ssh_key,
      created,
    })
    await recordEvent(trx, profileEvent(actor, 'user_ssh_key_add', sshKeyEntity(row), created))
    return toSshKey(row)
  })
}

export async function updateSshKey(
  db: Db,
  clock: Clock,
  actor: Actor,
  id: number,
  input: { label?: string },
): Promise<SshKey> {
  return inTransaction(db, async (trx) => {
    const row = await getRow(trx, actor, id)
    if (input.label === undefined) return toSshKey(row)
    const updated = await repo.updateSshKeyLabel(trx, row.id, input.label)
    await recordEvent(
      trx,
      profileEvent(actor, 'user_ssh_key_update', sshKeyEntity(updated), nowTimestamp(clock)),
    )
    return toSshKey(updated)
  })
}

/** Removes the key from the profile only; copies already deployed to instances stay there. */
export async function deleteSshKey(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await getRow(trx, actor, id)
    await repo.deleteSshKey(trx, row.id)
    await recordEvent(trx, profileEvent(actor, 'user_ssh_key_delete', sshKeyEntity(row), nowTimestamp(clock)))
  })
}
