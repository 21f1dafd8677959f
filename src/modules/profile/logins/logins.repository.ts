import { sql } from 'kysely'
import { type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { LoginRow } from './logins.table.ts'

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
  page: PageRequest,
): Promise<PageResult<LoginRow>> {
  return paginate(recentSuccessful(db, userId, since), page, [
    { expression: sql.ref('id'), direction: 'asc' },
  ])
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

/**
 * The latest login attempt (any status) of each of a page of users, in one query: a row for which
 * no later row of the same user exists. The (user_id, datetime, id) index serves both sides.
 */
export async function findLastLogins(
  db: Db,
  userIds: number[],
): Promise<Map<number, Pick<LoginRow, 'datetime' | 'status'>>> {
  const result = new Map<number, Pick<LoginRow, 'datetime' | 'status'>>()
  if (userIds.length === 0) return result
  const rows = await db
    .selectFrom('logins as l')
    .select(['l.user_id', 'l.datetime', 'l.status'])
    .where('l.user_id', 'in', userIds)
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('logins as later')
            .select(sql`1`.as('one'))
            .whereRef('later.user_id', '=', 'l.user_id')
            .where((eb) =>
              eb.or([
                eb('later.datetime', '>', eb.ref('l.datetime')),
                eb.and([
                  eb('later.datetime', '=', eb.ref('l.datetime')),
                  eb('later.id', '>', eb.ref('l.id')),
                ]),
              ]),
            ),
        ),
      ),
    )
    .execute()
  for (const row of rows) result.set(row.user_id, { datetime: row.datetime, status: row.status })
  return result
}
