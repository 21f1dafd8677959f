import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { LoginRow } from './logins.table.ts'

/**
 * No login field is filterable (docs/service-facts.md#filterable-fields); the header is still
 * checked, so a filter on anything is refused.
 */
export const LOGIN_FILTERS: FilterSpec = {}

/** Successful logins since a time: all that the profile shows. */
function recentSuccessful(db: Db, userId: number, since: string) {
  return db
    .selectFrom('logins')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '=', 'successful')
    .where('datetime', '>=', since)
}

export async function listLogins(
  db: Db,
  userId: number,
  since: string,
  list: ListQuery,
): Promise<PageResult<LoginRow>> {
  return pageOfFilteredList(
    db,
    recentSuccessful(db, userId, since),
    { spec: LOGIN_FILTERS, unique: 'id' },
    list,
  )
}

export async function findLogin(
  db: Db,
  userId: number,
  since: string,
  id: number,
): Promise<LoginRow | undefined> {
  return recentSuccessful(db, userId, since).where('id', '=', id).executeTakeFirst()
}

export async function insertLogin(db: Db, login: Omit<LoginRow, 'id'>): Promise<LoginRow> {
  return db.insertInto('logins').values(login).returningAll().executeTakeFirstOrThrow()
}
