import { sql } from 'kysely'
import type { PageRequest } from '../../common/pagination.ts'
import { paginate } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import type { NewUserRow, UserRow, UserRowUpdate } from './users.table.ts'

export async function findUserByUsername(db: Db, username: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('username', '=', username).executeTakeFirst()
}

export async function findAccountUser(
  db: Db,
  accountId: number,
  username: string,
): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('username', '=', username)
    .executeTakeFirst()
}

export async function findUserById(db: Db, id: number): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function listAccountUsers(
  db: Db,
  accountId: number,
  page: PageRequest,
): Promise<PageResult<UserRow>> {
  return paginate(db.selectFrom('users').selectAll().where('account_id', '=', accountId), page, [
    { expression: sql.ref('id'), direction: 'asc' },
  ])
}

export async function insertUser(db: Db, user: NewUserRow): Promise<UserRow> {
  return db.insertInto('users').values(user).returningAll().executeTakeFirstOrThrow()
}

export async function updateUser(db: Db, id: number, values: UserRowUpdate): Promise<UserRow> {
  return db.updateTable('users').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteUser(db: Db, id: number): Promise<void> {
  await db.deleteFrom('users').where('id', '=', id).execute()
}

export async function countUnrestrictedUsers(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select(sql<number>`count(*)`.as('n'))
    .where('account_id', '=', accountId)
    .where('restricted', '=', false)
    .executeTakeFirst()
  return Number(row?.n ?? 0)
}
