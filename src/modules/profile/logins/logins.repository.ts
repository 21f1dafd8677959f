import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { insertRow, rowsOf } from '../../../db/rows.ts'
import type { LoginRow } from './logins.table.ts'

/**
 * No login field is filterable (docs/service-facts.md#filterable-fields); the header is still
 * checked, so a filter on anything is refused.
 */
export const LOGIN_FILTERS: FilterSpec = {}

/** Successful logins since a time: all that the profile shows. */
const recentSuccessful = (db: Db, userId: number, since: string) =>
  rowsOf(db, 'logins', { user_id: userId, status: 'successful' }).where('datetime', '>=', since)

export const listLogins = (db: Db, userId: number, since: string, list: ListQuery) =>
  pageOfFilteredList(db, recentSuccessful(db, userId, since), { spec: LOGIN_FILTERS, unique: 'id' }, list)

export const findLogin = (db: Db, userId: number, since: string, id: number) =>
  recentSuccessful(db, userId, since).where('id', '=', id).executeTakeFirst()

export const insertLogin = (db: Db, login: Omit<LoginRow, 'id'>) => insertRow(db, 'logins', login)
