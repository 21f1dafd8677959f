import { sql } from 'kysely'
import { type PageRequest, paginateQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
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
  return paginateQuery(
    db,
    db.selectFrom('users').selectAll().where('account_id', '=', accountId),
    [{ expression: sql.ref('id'), direction: 'asc' }],
    page,
  )
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

/**
 * Serializes one user's writes that read before they write (two-factor, phone codes, security
 * answers): a row lock on PostgreSQL; SQLite's write transactions are already exclusive.
 */
export async function lockUser(db: Db, userId: number): Promise<void> {
  await forUpdate(db, db.selectFrom('users').select('id').where('id', '=', userId)).execute()
}

export async function setTwoFactorFlag(db: Db, userId: number, enabled: boolean): Promise<void> {
  await db.updateTable('users').set({ two_factor_auth: enabled }).where('id', '=', userId).execute()
}

export async function setVerifiedPhoneNumber(
  db: Db,
  userId: number,
  phoneNumber: string | null,
): Promise<void> {
  await db.updateTable('users').set({ verified_phone_number: phoneNumber }).where('id', '=', userId).execute()
}

export async function findVerifiedPhoneNumber(db: Db, userId: number): Promise<string | null> {
  const row = await db
    .selectFrom('users')
    .select('verified_phone_number')
    .where('id', '=', userId)
    .executeTakeFirst()
  return row?.verified_phone_number ?? null
}
