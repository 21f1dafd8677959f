import { type SelectQueryBuilder, sql } from 'kysely'
import type { Db } from '../../db/connect.ts'
import type { Database } from '../../db/database.ts'
import { dialectOf, type SqlDialect } from '../../db/dialects/dialect.ts'
import { stableSlot } from '../../db/prepared.ts'

/**
 * The event list's `results` from the per-day counts that triggers keep (`event_counts`, see the
 * 2026_11_23_0303 migration), for the lists those counts can answer: all of an account's events,
 * or those of one action. Every other list counts its rows over an index.
 */

/**
 * The action an X-Filter selects when it filters on nothing else (ordering aside): `null` for no
 * filter at all, undefined when the counts cannot answer it.
 */
export function countableAction(filter: string | null): { action: string | null } | undefined {
  if (filter === null) return { action: null }
  let parsed: unknown
  try {
    parsed = JSON.parse(filter)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const fields = Object.entries(parsed).filter(([key]) => key !== '+order_by' && key !== '+order')
  if (fields.length === 0) return { action: null }
  const [only] = fields
  if (fields.length === 1 && only?.[0] === 'action' && typeof only[1] === 'string') return { action: only[1] }
  return undefined
}

/**
 * Whole days after the retention start from the counts (a row per day and action), plus the
 * events of the retention start's own day that fall inside it, counted over an index: a cost set
 * by the number of days and actions, not of events. Slots: `account`, `since` and its day
 * (`sinceDay`, `YYYY-MM-DD`) and the next day's start (`sinceDayEnd`).
 */
export function countFromDays(
  db: Db,
  dialect: SqlDialect,
  action: string | null,
): SelectQueryBuilder<Database, never, { n: number }> {
  const account = stableSlot<number>(dialect, 'account')
  const onAction = (alias: string) =>
    action === null ? sql`` : sql` and ${sql.ref(`${alias}.action`)} = ${action}`
  const days = sql`(select sum(c.n) from event_counts c where c.account_id = ${account} and c.day > ${stableSlot<string>(dialect, 'sinceDay')}${onAction('c')})`
  const firstDay = sql`(select count(*) from events e where e.account_id = ${account} and e.created >= ${stableSlot<string>(dialect, 'since')} and e.created < ${stableSlot<string>(dialect, 'sinceDayEnd')}${onAction('e')})`
  return db.selectNoFrom(sql<number>`coalesce(${days}, 0) + ${firstDay}`.as('n'))
}

/** The slots `countFromDays` needs beyond the account and `since`. */
export function sinceDayValues(since: string): { sinceDay: string; sinceDayEnd: string } {
  const sinceDay = since.slice(0, 10)
  const next = new Date(`${sinceDay}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return { sinceDay, sinceDayEnd: next.toISOString().slice(0, 19) }
}

/**
 * Counts every account's events again from the events themselves: after a restore that emptied
 * the events table without its delete trigger (SQLite drops and re-creates a large one).
 */
export async function rebuildEventCounts(db: Db): Promise<void> {
  const day = dialectOf(db) === 'postgres' ? sql`to_char(created, 'YYYY-MM-DD')` : sql`substr(created, 1, 10)`
  await sql`delete from event_counts`.execute(db)
  await sql`insert into event_counts (account_id, day, action, n)
    select account_id, ${day}, action, count(*) from events group by account_id, ${day}, action`.execute(db)
}
