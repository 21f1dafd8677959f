import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { SshKeyRow } from './ssh-keys.table.ts'

/**
 * No field of an SSH key is filterable (docs/service-facts.md#filterable-fields); the header is
 * still checked, so a filter on anything is refused.
 */
export const SSH_KEY_FILTERS: FilterSpec = {}

export async function listSshKeys(db: Db, userId: number, list: ListQuery): Promise<PageResult<SshKeyRow>> {
  return pageOfFilteredList(
    db,
    db.selectFrom('ssh_keys').selectAll().where('user_id', '=', userId),
    { spec: SSH_KEY_FILTERS, unique: 'id' },
    list,
  )
}

export async function findSshKey(db: Db, userId: number, id: number): Promise<SshKeyRow | undefined> {
  return db
    .selectFrom('ssh_keys')
    .selectAll()
    .where('user_id', '=', userId)
    .where('id', '=', id)
    .executeTakeFirst()
}

export async function insertSshKey(
  db: Db,
  key: { userId: number; label: string; sshKey: string; created: string },
): Promise<SshKeyRow> {
  return db
    .insertInto('ssh_keys')
    .values({ user_id: key.userId, label: key.label, ssh_key: key.sshKey, created: key.created })
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function updateSshKeyLabel(db: Db, id: number, label: string): Promise<SshKeyRow> {
  return db
    .updateTable('ssh_keys')
    .set({ label })
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteSshKey(db: Db, id: number): Promise<void> {
  await db.deleteFrom('ssh_keys').where('id', '=', id).execute()
}
