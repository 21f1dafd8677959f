import type { ListQuery } from '../../common/pagination.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import {
  countRows,
  deleteRows,
  findRow,
  findValue,
  insertRow,
  pageOfRows,
  updateRow,
  updateRows,
} from '../../db/rows.ts'
import type { NewUserRow, UserRowUpdate } from './users.table.ts'

export const findUserByUsername = (db: Db, username: string) => findRow(db, 'users', { username })

export const findAccountUser = (db: Db, accountId: number, username: string) =>
  findRow(db, 'users', { account_id: accountId, username })

export const findUserById = (db: Db, id: number) => findRow(db, 'users', { id })

/** The account's users in id order (the list takes no X-Filter). */
/**
 * No field of a user is filterable (docs/service-facts.md#filterable-fields); the header is still
 * checked, so a filter on anything is refused.
 */
export const USER_FILTERS: FilterSpec = {}

export const listAccountUsers = (db: Db, accountId: number, list: ListQuery) =>
  pageOfRows(db, 'users', { account_id: accountId }, { spec: USER_FILTERS, unique: 'id' }, list)

export const insertUser = (db: Db, user: NewUserRow) => insertRow(db, 'users', user)

export const updateUser = (db: Db, id: number, values: UserRowUpdate) =>
  updateRow(db, 'users', { id }, values)

export const deleteUser = (db: Db, id: number) => deleteRows(db, 'users', { id })

export const countUnrestrictedUsers = (db: Db, accountId: number) =>
  countRows(db, 'users', { account_id: accountId, restricted: false })

/**
 * Serializes one user's writes that read before they write (two-factor, phone codes, security
 * answers): a row lock on PostgreSQL; SQLite's write transactions are already exclusive.
 */
export async function lockUser(db: Db, userId: number): Promise<void> {
  await forUpdate(db, db.selectFrom('users').select('id').where('id', '=', userId)).execute()
}

export const setTwoFactorFlag = (db: Db, userId: number, enabled: boolean) =>
  updateRows(db, 'users', { id: userId }, { two_factor_auth: enabled })

export const setVerifiedPhoneNumber = (db: Db, userId: number, phoneNumber: string | null) =>
  updateRows(db, 'users', { id: userId }, { verified_phone_number: phoneNumber })

export async function findVerifiedPhoneNumber(db: Db, userId: number): Promise<string | null> {
  return (await findValue(db, 'users', 'verified_phone_number', { id: userId })) ?? null
}
