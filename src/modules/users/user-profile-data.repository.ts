import { sql } from 'kysely'
import type { Db } from '../../db/connect.ts'

/**
 * The users domain's read model over two tables the profile owns (`ssh_keys`, `logins`): what a
 * user's wire shape shows beyond the user row. Only reads, and only here, so the profile can
 * depend on users without users depending back on the profile.
 */

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

export interface LastLogin {
  datetime: string
  status: string
}

/**
 * The latest login attempt (any status) of each of a page of users, in one query: a row for which
 * no later row of the same user exists. The (user_id, datetime, id) index serves both sides.
 */
export async function findLastLogins(db: Db, userIds: number[]): Promise<Map<number, LastLogin>> {
  const result = new Map<number, LastLogin>()
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
