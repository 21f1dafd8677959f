import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { FilterSpec } from '../../common/x-filter.ts'
import { compileFilter } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf, type SqlDialect } from '../../db/dialects/dialect.ts'
import { stableSlot } from '../../db/prepared.ts'

/**
 * The event list's `results` from the tallies that triggers keep per account, day, action, entity
 * type and `read` (`event_tallies`, see the 2026_11_23_0801 migration), for every list they can
 * answer: any filter on those three fields alone (docs/decisions.md#event-counts). Every event of a
 * tally shares its key, so the filter means the same on the tally as on each of its events.
 */

/** The filterable fields every tally row carries, as the tally's columns. */
const TALLY_FILTERS: FilterSpec = {
  action: { column: 't.action', type: 'string' },
  'entity.type': { column: 't.entity_type', type: 'string', nullable: true },
  read: { column: 't.read', type: 'boolean' },
}

/**
 * The X-Filter's condition on the tallies: `null` when it has no condition (ordering aside),
 * undefined when it names anything tallies do not hold (`id`, `created`, `entity.id`).
 */
export function tallyCondition(
  filter: string | null,
  dialect: SqlDialect,
): { where: RawBuilder<SqlBool> | null } | undefined {
  if (filter === null) return { where: null }
  let parsed: unknown
  try {
    parsed = JSON.parse(filter)
  } catch {
    return undefined
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined
  const conditions = Object.fromEntries(
    Object.entries(parsed).filter(([key]) => key !== '+order_by' && key !== '+order'),
  )
  try {
    const { where } = compileFilter(JSON.stringify(conditions), TALLY_FILTERS, dialect)
    return { where: where ?? null }
  } catch {
    // A field the tallies do not hold; the list's own compilation reports real mistakes.
    return undefined
  }
}

/**
 * Whole days after the retention start from the tallies (a row per day and kind of event), plus
 * the events of the retention start's own day that fall inside it, counted over an index: a cost
 * set by the number of days and kinds, not of events. `eventWhere` is the same filter on the
 * events. Slots: `account`, `since` and its day (`sinceDay`, `YYYY-MM-DD`) and the next day's
 * start (`sinceDayEnd`).
 */
export function countFromTallies(
  db: Db,
  dialect: SqlDialect,
  tallyWhere: RawBuilder<SqlBool> | null,
  eventWhere: RawBuilder<SqlBool> | undefined,
) {
  const account = stableSlot<number>(dialect, 'account')
  const onTally = tallyWhere === null ? sql`` : sql` and ${tallyWhere}`
  const onEvent = eventWhere === undefined ? sql`` : sql` and ${eventWhere}`
  const days = sql`(select sum(t.n) from event_tallies t where t.account_id = ${account} and t.day > ${stableSlot<string>(dialect, 'sinceDay')}${onTally})`
  const firstDay = sql`(select count(*) from events where events.account_id = ${account} and events.created >= ${stableSlot<string>(dialect, 'since')} and events.created < ${stableSlot<string>(dialect, 'sinceDayEnd')}${onEvent})`
  return db.selectNoFrom(sql<number>`coalesce(${days}, 0) + ${firstDay}`.as('n'))
}

/** The slots `countFromTallies` needs beyond the account and `since`. */
export function sinceDayValues(since: string): { sinceDay: string; sinceDayEnd: string } {
  const sinceDay = since.slice(0, 10)
  const next = new Date(`${sinceDay}T00:00:00Z`)
  next.setUTCDate(next.getUTCDate() + 1)
  return { sinceDay, sinceDayEnd: next.toISOString().slice(0, 19) }
}

/**
 * Tallies every account's events again from the events themselves: after a restore that emptied
 * the events table without its delete trigger (SQLite drops and re-creates a large one).
 */
export async function rebuildEventCounts(db: Db): Promise<void> {
  const day = dialectOf(db) === 'postgres' ? sql`to_char(created, 'YYYY-MM-DD')` : sql`substr(created, 1, 10)`
  await sql`delete from event_tallies`.execute(db)
  await sql`insert into event_tallies (account_id, day, action, entity_key, read, n)
    select account_id, ${day}, action, coalesce(entity_type, ''), read, count(*) from events
    group by account_id, ${day}, action, coalesce(entity_type, ''), read`.execute(db)
}
