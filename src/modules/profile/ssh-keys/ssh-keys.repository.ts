import { sql } from 'kysely'
import { type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { SshKeyRow } from './ssh-keys.table.ts'

export async function listSshKeys(db: Db, userId: number, page: PageRequest): Promise<PageResult<SshKeyRow>> {
  return paginate(db.selectFrom('ssh_keys').selectAll().where('user_id', '=', userId), page, [
    { expression: sql.ref('id'), direction: 'asc' },
  ])
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

/** The key labels of a page of users, in one query (account user lists show them). */
export async function listSshKeyLabels(db: Db, userIds: number[]): Promise<Map<number, string[]>> {
  const labels = new Map<number, string[]>()
  if (userIds.length === 0) return labels
  const rows = await db
    .selectFrom('ssh_keys')
    .select(['user_id', 'label'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('id')
    .execute()
  for (const row of rows) {
    const list = labels.get(row.user_id)
    if (list) list.push(row.label)
    else labels.set(row.user_id, [row.label])
  }
  return labels
}
