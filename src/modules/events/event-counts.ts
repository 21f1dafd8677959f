import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { parseTimestamp } from '../../common/time.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import { compileFilter } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf, type SqlDialect } from '../../db/dialects/dialect.ts'
import { stableSlot } from '../../db/prepared.ts'

/**
 * The event list's `results` from tallies that triggers keep per account and kind of event
 * (action, entity type, `read`): per day (`event_tallies`, migration 2026_11_23_0801), and per
 * block of ids, minute and hour (`event_range_tallies`, migration 2026_11_26_1030). They answer
 * every list whose filter is, at its top level, ranges of `id` and `created` and any condition on
 * the three kind fields (docs/decisions.md#event-counts). Every event of a tally shares its kind,
 * so a kind condition means the same on the tally as on each of its events.
 */

/** The filterable fields every tally row carries, as the columns of a table (`t`, `events`). */
export const kindFilters = (table: string): FilterSpec => ({
  action: { column: `${table}.action`, type: 'string' },
  'entity.type': { column: `${table}.entity_type`, type: 'string', nullable: true },
  read: { column: `${table}.read`, type: 'boolean' },
})
const TALLY_FILTERS = kindFilters('t')
const EVENT_KIND_FILTERS = kindFilters('events')

/** Ids never reach this (JavaScript numbers are exact below it): the open end of an id range. */
const NO_ID_ABOVE = 2 ** 53
const DAY = 86_400
const HOUR = 3_600
const MINUTE = 60
/** Ids per block of each scale of `event_range_tallies`, and fine blocks per coarse one. */
export const FINE = 256
const COARSE = 16_384
const FINE_PER_COARSE = COARSE / FINE

/** A half-open range `[from, to)`; `to` undefined: no end. Times in epoch seconds. */
interface Range {
  from: number
  to: number | undefined
}

interface FilterRanges {
  /** The filter without its `id` and `created` ranges and ordering keys. */
  rest: Record<string, unknown>
  id: Range | undefined
  created: Range
  /** Every condition on `id` and `created` is one of these ranges. */
  ranged: boolean
  /** The filter's `+order_by`, if any. */
  orderBy: unknown
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

const epochOf = (timestamp: string) => Date.parse(`${timestamp}Z`) / 1000
const timestampOf = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 19)

/**
 * The values of a field's condition as a range: equality, `+gt`, `+gte`, `+lt`, `+lte`, and any
 * of them together. Ids and times (whole seconds) are integers, so every bound becomes an
 * inclusive start or an exclusive end. Undefined for anything else (`+neq`, `null`, a bad value:
 * the list's own compilation answers those).
 */
function rangeOf(value: unknown, read: (v: unknown) => number | undefined): Range | undefined {
  const bounds: Array<[string, unknown]> = isPlainObject(value) ? Object.entries(value) : [['', value]]
  if (bounds.length === 0) return undefined
  let from = Number.NEGATIVE_INFINITY
  let to = Number.POSITIVE_INFINITY
  for (const [op, operand] of bounds) {
    const v = read(operand)
    if (v === undefined || !['', '+gt', '+gte', '+lt', '+lte'].includes(op)) return undefined
    if (op === '' || op === '+gte' || op === '+gt') from = Math.max(from, op === '+gt' ? v + 1 : v)
    if (op === '' || op === '+lte' || op === '+lt') to = Math.min(to, op === '+lt' ? v : v + 1)
  }
  return { from, to: Number.isFinite(to) ? to : undefined }
}

const readId = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) ? v : undefined)
/**
 * Times from here on are left to the list's own conditions: a second past them, or the day,
 * hour or minute they round up to, would leave year 9999, which a timestamp cannot spell.
 */
const LAST_RANGED_TIME = Date.UTC(9999, 11, 30) / 1000
function readTime(v: unknown): number | undefined {
  const timestamp = typeof v === 'string' ? parseTimestamp(v) : undefined
  const epoch = timestamp === undefined ? undefined : epochOf(timestamp)
  return epoch === undefined || epoch >= LAST_RANGED_TIME ? undefined : epoch
}

/** The top-level `id` and `created` ranges of an X-Filter and the rest of it; undefined if not JSON. */
export function rangesOf(filter: string | null): FilterRanges | undefined {
  const ranges: FilterRanges = {
    rest: {},
    id: undefined,
    created: { from: Number.NEGATIVE_INFINITY, to: undefined },
    ranged: true,
    orderBy: undefined,
  }
  if (filter === null) return ranges
  let parsed: unknown
  try {
    parsed = JSON.parse(filter)
  } catch {
    return undefined
  }
  if (!isPlainObject(parsed)) return undefined
  for (const [key, value] of Object.entries(parsed)) {
    if (key === '+order_by') ranges.orderBy = value
    if (key === '+order_by' || key === '+order') continue
    if (key === 'id' || key === 'created') {
      const range = rangeOf(value, key === 'id' ? readId : readTime)
      if (range === undefined) ranges.ranged = false
      else if (key === 'id') ranges.id = range
      else ranges.created = range
    } else {
      ranges.rest[key] = value
    }
  }
  return ranges
}

/**
 * A column as an expression no index is searched by: a unary plus on SQLite, and on PostgreSQL an
 * interval added to a time (an id stays itself: its ranges narrow the rows as PostgreSQL plans).
 */
export function plainColumn(column: string, dialect: SqlDialect): RawBuilder<unknown> {
  if (dialect === 'sqlite') return sql`+${sql.ref(column)}`
  return column.endsWith('.created') ? sql`(${sql.ref(column)} + interval '0 s')` : sql.ref(column)
}

/** The bounds of `created` over an `id` range's blocks (`rangeAside`), a table of one row. */
export interface RangeBounds {
  lo: string | null
  hi: string | null
}
/** The name `rangeAside`'s `where` reads its bounds by: a common table expression of the page. */
export const RANGE_BOUNDS = 'range_bounds'

/**
 * The page of a list with a top-level range of `id` or `created` in the other field's order, as a
 * filter without that range and a condition that replaces it; undefined for other lists.
 *
 * A `created` range in another order than `created` (SQLite): the range as a condition SQLite does
 * not search an index by, so that the page walks the index of its order and stops after a page,
 * as for a poller's "since", instead of sorting every event the range holds.
 *
 * On PostgreSQL too when the page walks blocks of ids (`walked`, see event-page-walk.ts): each block
 * is then searched by its ids, never by an index of `created` (and the kind) for every block.
 *
 * An `id` range ordered by `created`: also the bounds of `created` over the range's blocks of ids
 * (from their tallies; a little wider than the events' own), so that the page walks the `created`
 * index from where the range's events begin (or end), rather than sorting them all. Both bounds
 * come from one pass over the blocks (`bounds`), which the page holds as a materialized common
 * table expression named RANGE_BOUNDS and reads twice; two subqueries, one per bound, read every
 * block twice, and a join of the one-row table made SQLite sort the page. Slots: `account` and the
 * `bound…` ones of `countSlots`.
 */
export function rangeAside(
  filter: string | null,
  dialect: SqlDialect,
  walked = false,
): { filter: string; where: RawBuilder<SqlBool>; bounds?: RawBuilder<RangeBounds> } | undefined {
  if (filter === null || !/"(id|created)"/.test(filter)) return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(filter)
  } catch {
    return undefined
  }
  if (!isPlainObject(parsed)) return undefined
  const byCreated = parsed['+order_by'] === 'created'
  const field = byCreated ? 'id' : 'created'
  if (!isPlainObject(parsed[field]) || (field === 'created' && dialect !== 'sqlite' && !walked))
    return undefined
  const range = rangeOf(parsed[field], field === 'id' ? readId : readTime)
  if (range === undefined) return undefined
  const { [field]: _, ...rest } = parsed
  const value = (v: number) => (field === 'id' ? v : timestampOf(v))
  const column = plainColumn(`events.${field}`, dialect)
  const from = Number.isFinite(range.from)
    ? sql<SqlBool>`${column} >= ${value(range.from)}`
    : sql<SqlBool>`1 = 1`
  const to = range.to === undefined ? sql<SqlBool>`1 = 1` : sql<SqlBool>`${column} < ${value(range.to)}`
  if (field === 'created') return { filter: JSON.stringify(rest), where: sql<SqlBool>`${from} and ${to}` }
  const at = <T>(name: string) => stableSlot<T>(dialect, name)
  // Each range of blocks searched on its own (an OR of them would read every tally of the account),
  // for both edges at once.
  const blocks = (scale: string, fromSlot: string, toSlot: string) =>
    sql`select min(t.first_created) as lo, max(t.last_created) as hi from event_range_tallies t
      where t.account_id = ${at('account')} and t.scale = ${sql.lit(scale)} and t.bucket >= ${at(fromSlot)} and t.bucket < ${at(toSlot)}`
  const bounds = sql<RangeBounds>`select min(b.lo) as lo, max(b.hi) as hi from (${blocks('id16384', 'coarseFrom', 'coarseTo')}
    union all ${blocks('id256', 'boundFrom1', 'boundTo1')} union all ${blocks('id256', 'boundFrom2', 'boundTo2')}) b`
  const within = sql<SqlBool>`events.created >= (select lo from ${sql.table(RANGE_BOUNDS)}) and events.created <= (select hi from ${sql.table(RANGE_BOUNDS)})`
  return { filter: JSON.stringify(rest), where: sql<SqlBool>`${from} and ${to} and ${within}`, bounds }
}

/** How a list's `results` is counted from the tallies (see `countFromTallies`). */
export interface TallyPlan {
  /** The filter's condition on the kind columns, of the tallies (`t`) and of the events. */
  tallyWhere: RawBuilder<SqlBool> | null
  eventWhere: RawBuilder<SqlBool> | null
  /** Counted from blocks of ids (the filter has an `id` range) rather than from spans of time. */
  byId: boolean
  /** The filter bounds `created` from above. */
  createdEnds: boolean
}

/**
 * The tally plan of an X-Filter, or undefined when tallies cannot answer it: it names a field they
 * do not hold (`entity.id`), or puts `id` or `created` anywhere but in a range at its top level.
 */
export function tallyPlan(filter: string | null, dialect: SqlDialect): TallyPlan | undefined {
  const ranges = rangesOf(filter)
  if (ranges === undefined || !ranges.ranged) return undefined
  let tallyWhere: RawBuilder<SqlBool> | null = null
  let eventWhere: RawBuilder<SqlBool> | null = null
  if (Object.keys(ranges.rest).length > 0) {
    const rest = JSON.stringify(ranges.rest)
    try {
      tallyWhere = compileFilter(rest, TALLY_FILTERS, dialect).where ?? null
      eventWhere = compileFilter(rest, EVENT_KIND_FILTERS, dialect).where ?? null
    } catch {
      // A field the tallies do not hold; the list's own compilation reports real mistakes.
      return undefined
    }
  }
  return {
    tallyWhere,
    eventWhere,
    byId: ranges.id !== undefined,
    createdEnds: ranges.created.to !== undefined,
  }
}

/**
 * The count of a list the tallies answer.
 *
 * In time (no `id` range): the window `[since or the range's start, the range's end)` as whole
 * days (day tallies), whole hours and minutes at either end, and the events of at most two partial
 * minutes, counted over an index (each the shorter part of its minute, see `timeSlots`). By id:
 * whole blocks of 16,384 ids, then of 256 ids at the ends, and the events of at most two partial
 * blocks (each the shorter part of its block, see `idSlots`); a block whose events' times all fall
 * inside the window counts whole, one wholly outside not at all, and one across its edge is counted
 * finer (its fine blocks, then its events). Either way the cost follows the number of buckets and
 * kinds of events, not the number of events.
 * Slots: `account` and those of `countSlots`.
 */
export function countFromTallies(db: Db, dialect: SqlDialect, plan: TallyPlan) {
  const at = <T>(name: string) => stableSlot<T>(dialect, name)
  const account = at<number>('account')
  const onTally = plan.tallyWhere === null ? sql`` : sql` and ${plan.tallyWhere}`
  const onEvent = plan.eventWhere === null ? sql`` : sql` and ${plan.eventWhere}`
  if (!plan.byId) {
    const spans = (scale: 'hour' | 'minute', end: 1 | 2) =>
      sql`coalesce((select sum(t.n) from event_range_tallies t where t.account_id = ${account} and t.scale = ${sql.lit(scale)} and t.bucket >= ${at(`${scale}From${end}`)} and t.bucket < ${at(`${scale}To${end}`)}${onTally}), 0)`
    const partial = (end: 1 | 2) =>
      sql`events.account_id = ${account} and events.created >= ${at(`eventsFrom${end}`)} and events.created < ${at(`eventsTo${end}`)}${onEvent}`
    // PostgreSQL plans a connection's statement once, often on an empty table, where it chose the
    // `(account_id, id, created)` index for this time range: that reads every event of the account.
    // In the order of `(account_id, created)` (kept by OFFSET 0) only that index serves it.
    const events = (end: 1 | 2) =>
      dialect === 'postgres'
        ? sql`(select count(*) from (select 1 from events where ${partial(end)} order by events.account_id, events.created offset 0) as w)`
        : sql`(select count(*) from events where ${partial(end)})`
    const days = sql`coalesce((select sum(t.n) from event_tallies t where t.account_id = ${account} and t.day >= ${at('dayFrom')} and t.day < ${at('dayTo')}${onTally}), 0)`
    return db.selectNoFrom(
      sql<number>`${days} + ${spans('hour', 1)} + ${spans('hour', 2)} + ${spans('minute', 1)} + ${spans('minute', 2)} + ${at('eventsSign1')} * ${events(1)} + ${at('eventsSign2')} * ${events(2)}`.as(
        'n',
      ),
    )
  }

  // The window and the kind are conditions on the rows an id range finds, not ranges to search by:
  // as expressions (a unary plus on SQLite; `+ interval`, `|| ''` on PostgreSQL, whose generic
  // plans would otherwise search an account's kind by time) they are not index columns.
  const plain = (column: string, type: 'text' | 'time') =>
    dialect === 'sqlite'
      ? sql`+${sql.ref(column)}`
      : type === 'time'
        ? sql`(${sql.ref(column)} + interval '0 s')`
        : sql`(${sql.ref(column)} || '')`
  const windowOf = (row: string) => {
    const created = plain(`${row}.created`, 'time')
    return plan.createdEnds
      ? sql<SqlBool>`${created} >= ${at('windowFrom')} and ${created} < ${at('windowTo')}`
      : sql<SqlBool>`${created} >= ${at('windowFrom')}`
  }
  // A tally row's events all inside the window, or some inside and some not.
  const inside = (row: string) =>
    plan.createdEnds
      ? sql<SqlBool>`${sql.ref(`${row}.first_created`)} >= ${at('windowFrom')} and ${sql.ref(`${row}.last_created`)} < ${at('windowTo')}`
      : sql<SqlBool>`${sql.ref(`${row}.first_created`)} >= ${at('windowFrom')}`
  const across = (row: string) =>
    plan.createdEnds
      ? sql<SqlBool>`not (${inside(row)}) and ${sql.ref(`${row}.last_created`)} >= ${at('windowFrom')} and ${sql.ref(`${row}.first_created`)} < ${at('windowTo')}`
      : sql<SqlBool>`not (${inside(row)}) and ${sql.ref(`${row}.last_created`)} >= ${at('windowFrom')}`
  const columns = sql`t.bucket, t.action, t.entity_key, t.read, t.n, t.first_created, t.last_created`
  const coarse = sql`select ${columns} from event_range_tallies t where t.account_id = ${account} and t.scale = 'id16384' and t.bucket >= ${at('coarseFrom')} and t.bucket < ${at('coarseTo')}${onTally}`
  const fineAt = (end: 1 | 2) =>
    sql`select ${columns} from event_range_tallies t where t.account_id = ${account} and t.scale = 'id256' and t.bucket >= ${at(`fineFrom${end}`)} and t.bucket < ${at(`fineTo${end}`)}${onTally}`
  // A fine block (tally row `row`) across the window's edge: its own events of its kind.
  const fineEvents = (row: string) => sql`(select count(*) from events e
    where e.account_id = ${account} and e.id >= ${sql.ref(`${row}.bucket`)} * ${sql.lit(FINE)} and e.id < ${sql.ref(`${row}.bucket`)} * ${sql.lit(FINE)} + ${sql.lit(FINE)}
      and ${plain('e.action', 'text')} = ${sql.ref(`${row}.action`)} and coalesce(e.entity_type, '') = ${sql.ref(`${row}.entity_key`)}
      and e.read = ${sql.ref(`${row}.read`)} and ${windowOf('e')})`
  // A tally row's events in the window: all, none, or (across its edge) `partly`.
  const tallied = (row: string, partly: RawBuilder<unknown>) =>
    sql`case when ${inside(row)} then ${sql.ref(`${row}.n`)} when ${across(row)} then ${partly} else 0 end`
  // A coarse block across the window's edge counts as its fine blocks, searched over the primary
  // key for that block alone: a subquery in a CASE runs only for the rows that reach it, so the
  // coarse blocks are read once (the second pass over them that this replaced was 7 of the 54 µs
  // of SQLite's count of `id > middle` at a million events).
  const fineOfCoarse = sql`(select coalesce(sum(${tallied('t', fineEvents('t'))}), 0) from event_range_tallies t
    where t.account_id = ${account} and t.scale = 'id256' and t.bucket >= c.bucket * ${sql.lit(FINE_PER_COARSE)}
      and t.bucket < c.bucket * ${sql.lit(FINE_PER_COARSE)} + ${sql.lit(FINE_PER_COARSE)} and t.action = c.action
      and t.entity_key = c.entity_key and t.read = c.read)`
  const events = (end: 1 | 2) =>
    sql`(select count(*) from events where events.account_id = ${account} and events.id >= ${at(`idFrom${end}`)} and events.id < ${at(`idTo${end}`)} and ${windowOf('events')}${onEvent})`
  const counted = sql<{ n: number }>`(select
      coalesce((select sum(${tallied('c', fineOfCoarse)}) from (${coarse}) c), 0)
      + coalesce((select sum(${tallied('f', fineEvents('f'))}) from (${fineAt(1)} union all ${fineAt(2)}) f), 0)
      + ${at('idSign1')} * ${events(1)} + ${at('idSign2')} * ${events(2)} as n)`
  return db.selectFrom(counted.as('counted')).select(sql<number>`counted.n`.as('n'))
}

/** `[from, to)` in units of `size`, both ends aligned to it; [0, 0) when empty. */
function buckets(from: number, to: number, size: number): [number, number] {
  return from < to ? [from / size, to / size] : [0, 0]
}

const floorTo = (v: number, size: number) => Math.floor(v / size) * size
const ceilTo = (v: number, size: number) => Math.ceil(v / size) * size
const dayText = (day: number) => (Number.isFinite(day) ? timestampOf(day * DAY).slice(0, 10) : '9999-12-32')

/**
 * `[from, to)` (epoch seconds) as partial minutes, minutes, hours, whole days, then hours, minutes
 * and a partial minute again: each level covers what the finer ones before it left, up to the
 * coarser boundary, so the parts never overlap and cover the range exactly. A partial minute's
 * events carry a sign: -1 when its whole minute is counted among the minutes instead and the events
 * are those of the minute outside the range.
 */
function timeSlots(from: number, to: number): Record<string, string | number> {
  const end = to
  let x = from
  const eventsEnd1 = Math.max(x, Math.min(ceilTo(x, MINUTE), end))
  let events1 = [x, eventsEnd1]
  let sign1 = 1
  let minutesStart1 = eventsEnd1
  // A partial minute mostly inside the window counts as its minute's tally less the events before
  // `from`: the shorter part of the minute is the one read over the index.
  const first = floorTo(from, MINUTE)
  if (eventsEnd1 === first + MINUTE && from - first < MINUTE / 2) {
    events1 = [first, from]
    sign1 = -1
    minutesStart1 = first
  }
  x = eventsEnd1
  const minutesEnd1 = Math.max(x, Math.min(ceilTo(x, HOUR), floorTo(end, MINUTE)))
  const minutes1 = buckets(minutesStart1, minutesEnd1, MINUTE)
  x = minutesEnd1
  const hoursEnd1 = Math.max(x, Math.min(ceilTo(x, DAY), floorTo(end, HOUR)))
  const hours1 = buckets(x, hoursEnd1, HOUR)
  x = hoursEnd1
  const daysEnd = Math.max(x, floorTo(end, DAY))
  const days = x < daysEnd ? [x / DAY, daysEnd / DAY] : [0, 0]
  x = daysEnd
  const hours2 = buckets(x, Math.max(x, floorTo(end, HOUR)), HOUR)
  x = Math.max(x, floorTo(end, HOUR))
  const minutesStart2 = x
  let minutes2 = buckets(x, Math.max(x, floorTo(end, MINUTE)), MINUTE)
  x = Math.max(x, floorTo(end, MINUTE))
  let events2 = Number.isFinite(end) && x < end ? [x, end] : [x, x]
  let sign2 = 1
  // The same at the other end: the last minute's tally less the events from `end` on.
  if (Number.isFinite(end) && x === floorTo(end, MINUTE) && end - x > MINUTE / 2) {
    minutes2 = buckets(minutesStart2, x + MINUTE, MINUTE)
    events2 = [end, x + MINUTE]
    sign2 = -1
  }
  // An open end: the events and spans past the last whole day are none (`x` is infinite).
  const stamp = (v: number | undefined) => timestampOf(Number.isFinite(v) ? (v as number) : from)
  return {
    dayFrom: dayText(days[0] as number),
    dayTo: dayText(days[1] as number),
    hourFrom1: hours1[0],
    hourTo1: hours1[1],
    hourFrom2: hours2[0],
    hourTo2: hours2[1],
    minuteFrom1: minutes1[0],
    minuteTo1: minutes1[1],
    minuteFrom2: minutes2[0],
    minuteTo2: minutes2[1],
    eventsFrom1: stamp(events1[0]),
    eventsTo1: stamp(events1[1]),
    eventsFrom2: stamp(events2[0]),
    eventsTo2: stamp(events2[1]),
    eventsSign1: sign1,
    eventsSign2: sign2,
  }
}

/**
 * `[from, to)` of ids as coarse blocks, fine blocks at either end, and the ids of partial ones.
 *
 * A partial fine block at either end is counted by its shorter part: the ids of the range in it,
 * or, when those are more than half of it, the whole block (among the fine blocks) less its ids
 * outside the range (`idSign…` -1). Either way at most half a block of events is read there.
 */
function idSlots(from: number, to: number): Record<string, number> {
  const none: [number, number] = [0, 0]
  let coarse = none
  let fine1 = none
  let fine2 = none
  let ids1: [number, number] = from < to ? [from, to] : none
  let ids2 = none
  let sign1 = 1
  let sign2 = 1
  const fineFrom = Math.ceil(from / FINE)
  const fineTo = Math.floor(to / FINE)
  if (fineFrom < fineTo) {
    ids1 = [from, fineFrom * FINE]
    ids2 = [fineTo * FINE, to]
    // The whole partial block less the ids before `from` (after `to`), where those are fewer.
    const wideFrom = ids1[1] - ids1[0] > FINE / 2
    const wideTo = ids2[1] - ids2[0] > FINE / 2
    if (wideFrom) {
      ids1 = [(fineFrom - 1) * FINE, from]
      sign1 = -1
    }
    if (wideTo) {
      ids2 = [to, (fineTo + 1) * FINE]
      sign2 = -1
    }
    const first = wideFrom ? fineFrom - 1 : fineFrom
    const last = wideTo ? fineTo + 1 : fineTo
    fine1 = [first, last]
    const coarseFrom = Math.ceil(fineFrom / FINE_PER_COARSE)
    const coarseTo = Math.floor(fineTo / FINE_PER_COARSE)
    if (coarseFrom < coarseTo) {
      coarse = [coarseFrom, coarseTo]
      fine1 = [first, coarseFrom * FINE_PER_COARSE]
      fine2 = [coarseTo * FINE_PER_COARSE, last]
    }
  }
  // Every block that holds an id of the range (the partial ones too), for the bounds of `created`.
  const first = Math.floor(from / FINE)
  const last = Math.ceil(to / FINE)
  let bound1 = from < to ? [first, last] : none
  let bound2 = none
  if (coarse !== none) {
    bound1 = [first, coarse[0] * FINE_PER_COARSE]
    bound2 = [coarse[1] * FINE_PER_COARSE, last]
  }
  return {
    boundFrom1: bound1[0] as number,
    boundTo1: bound1[1] as number,
    boundFrom2: bound2[0] as number,
    boundTo2: bound2[1] as number,
    coarseFrom: coarse[0],
    coarseTo: coarse[1],
    fineFrom1: fine1[0],
    fineTo1: fine1[1],
    fineFrom2: fine2[0],
    fineTo2: fine2[1],
    idFrom1: ids1[0],
    idTo1: ids1[1],
    idFrom2: ids2[0],
    idTo2: ids2[1],
    idSign1: sign1,
    idSign2: sign2,
  }
}

/**
 * The per-request slots of `countFromTallies` for this filter (the X-Filter as sent) and the
 * retention start: the list's window of time is the retention window narrowed by the filter's
 * `created` range. Also the bounds of `rangeAside` and of `pageWalk`.
 */
export function countSlots(filter: string | null, since: string): Record<string, string | number> {
  const ranges = rangesOf(filter)
  if (ranges === undefined) return {}
  const from = Math.max(epochOf(since), ranges.created.from)
  const to = ranges.created.to
  const window = {
    windowFrom: timestampOf(from),
    windowTo: timestampOf(to === undefined ? from : Math.max(from, to)),
  }
  if (ranges.id !== undefined) {
    const [idFrom, idTo] = [Math.max(0, ranges.id.from), Math.min(NO_ID_ABOVE, ranges.id.to ?? NO_ID_ABOVE)]
    // The blocks of 256 ids that hold an id of the range, for the page's walk (event-page-walk.ts).
    const walk = idFrom < idTo ? [Math.floor(idFrom / FINE), Math.ceil(idTo / FINE)] : [0, 0]
    return { ...window, ...idSlots(idFrom, idTo), walkFrom: walk[0] as number, walkTo: walk[1] as number }
  }
  return { ...window, ...timeSlots(from, to ?? Number.POSITIVE_INFINITY) }
}

/**
 * PostgreSQL: the transaction-local list of events written alone whose tallies wait for the commit
 * (migration 2026_11_27_1500_event_tallies_at_commit).
 */
const TALLIES_AT_COMMIT = 'cloudplane.tallies_at_commit'

/**
 * Tallies every account's events again from the events themselves: after a restore that emptied
 * the events table without its delete trigger (SQLite drops and re-creates a large one). Call it in
 * the transaction that wrote the events.
 */
export async function rebuildEventCounts(db: Db): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  // The events counted here are all of them: none is left to be added again at the commit.
  if (postgres) await sql`select set_config(${TALLIES_AT_COMMIT}, '', true)`.execute(db)
  const day = postgres ? sql`to_char(created, 'YYYY-MM-DD')` : sql`substr(created, 1, 10)`
  await sql`delete from event_tallies`.execute(db)
  await sql`insert into event_tallies (account_id, day, action, entity_key, read, n)
    select account_id, ${day}, action, coalesce(entity_type, ''), read, count(*) from events
    group by account_id, ${day}, action, coalesce(entity_type, ''), read`.execute(db)
  // The buckets exactly as the 2026_11_26_1030 migration's triggers compute them.
  const epoch = postgres ? sql`floor(extract(epoch from created))::bigint` : sql`unixepoch(created)`
  const floorDiv = (value: RawBuilder<unknown>, size: number) =>
    postgres
      ? sql`floor(${value}::numeric / ${sql.lit(size)})::bigint`
      : sql`((${value}) - (((${value}) % ${sql.lit(size)}) + ${sql.lit(size)}) % ${sql.lit(size)}) / ${sql.lit(size)}`
  const scales: Array<[string, RawBuilder<unknown>]> = [
    ['id256', floorDiv(sql`id`, FINE)],
    ['id16384', floorDiv(sql`id`, COARSE)],
    ['minute', floorDiv(epoch, MINUTE)],
    ['hour', floorDiv(epoch, HOUR)],
  ]
  await sql`delete from event_range_tallies`.execute(db)
  for (const [scale, bucket] of scales) {
    await sql`insert into event_range_tallies (account_id, scale, bucket, action, entity_key, read, n, first_created, last_created)
      select account_id, ${sql.lit(scale)}, ${bucket}, action, coalesce(entity_type, ''), read, count(*), min(created), max(created)
      from events group by account_id, ${bucket}, action, coalesce(entity_type, ''), read`.execute(db)
  }
}
