import { type CompiledQuery, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import { listStatements, orderSql, type PageRequest, paginate } from '../../common/pagination.ts'
import { joinedJsonPage } from '../../common/rendered-json.ts'
import type { PageResult } from '../../common/schemas.ts'
import { CREDENTIALS_COUNTER, counterColumn } from '../../db/change-counters.ts'
import type { Db } from '../../db/connect.ts'
import type { Database } from '../../db/database.ts'
import { listCriteria } from '../../db/list-criteria.ts'
import { defineShaped, fill, slot, stableSlot } from '../../db/prepared.ts'
import { accountFirst, ofAccount } from './event-account.ts'
import {
  countFromTallies,
  countSlots,
  plainColumn,
  RANGE_BOUNDS,
  type RangeBounds,
  rangeAside,
  tallyPlan,
} from './event-counts.ts'
import { eventJson } from './event-json.ts'
import { type PageWalk, pageWalk } from './event-page-walk.ts'
import { EVENT_COLUMNS, toRow } from './event-row.ts'
import type { EventStatus, NewEvent } from './event-types.ts'
import { type EventTailFields, eventTail } from './event-wire.ts'
import { EVENT_FILTERS } from './events.filters.ts'
import type { EventRow, NewEventRow } from './events.table.ts'

// The event types live in event-types.ts (other domains import them from there); also named here
// for this file's own callers and tests.
export type { EventEntity, EventSecondaryEntity, EventStatus, NewEvent } from './event-types.ts'

/**
 * Records events. Call it with the transaction of the change that emits them, so the change and
 * its events commit (or vanish) together.
 */
export async function recordEvents(db: Db, events: NewEvent[]): Promise<number[]> {
  if (events.length === 0) return []
  const rows = events.map(toRow)
  // One row, the common case on every write: a statement prepared once (db/prepared.ts).
  if (rows.length === 1) {
    const { insert } = insertStatement(db, {})
    const inserted = await db.executeQuery(fill(insert, rows[0] as Record<string, unknown>))
    return inserted.rows.map((r) => r.id)
  }
  const inserted = await db.insertInto('events').values(rows).returning('id').execute()
  return inserted.map((r) => r.id)
}

const insertStatement = defineShaped('insert event', (db, _shape: Record<string, never>) => ({
  insert: (db as Db)
    .insertInto('events')
    .values(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, slot(c)])) as NewEventRow)
    .returning('id')
    .compile(),
}))

export async function recordEvent(db: Db, event: NewEvent): Promise<number> {
  const [id] = await recordEvents(db, [event])
  return id as number
}

/** Where a job's event stands now. */
export interface EventProgress {
  status: EventStatus
  percentComplete?: number | null
  duration?: number | null
  /** Seconds left (timed work in progress); null otherwise. */
  timeRemaining?: number | null
}

/** Moves a job's event along (started → finished or failed), keeping its stored JSON in step. */
export async function updateEventProgress(db: Db, id: number, progress: EventProgress): Promise<void> {
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst()
  if (row === undefined) return
  const fields: EventTailFields = {
    ...row,
    status: progress.status,
    percent_complete: progress.percentComplete ?? null,
    duration: progress.duration ?? null,
    time_remaining: progress.timeRemaining == null ? null : String(progress.timeRemaining),
  }
  await db
    .updateTable('events')
    .set({
      status: fields.status,
      percent_complete: fields.percent_complete,
      duration: fields.duration,
      time_remaining: fields.time_remaining,
      json_tail: eventTail(fields),
    })
    .where('id', '=', id)
    .execute()
}

export interface EventScope {
  accountId: number
  since: string
  /** Restricted users: their id, to keep only events they may see. */
  restrictedUserId: number | null
}

function visibility(uid: number | RawBuilder<number>, writable = false): RawBuilder<SqlBool> {
  const permission = writable ? sql` and g.permissions = 'read_write'` : sql``
  return sql<SqlBool>`((events.grant_entity_type is null and events.user_id = ${uid}) or exists (select 1 from entity_grants g where g.user_id = ${uid} and g.entity_type = events.grant_entity_type and g.entity_id = events.grant_entity_id${permission}))`
}

function scoped(db: Db, scope: EventScope) {
  let query = db
    .selectFrom('events')
    .selectAll('events')
    .where('events.account_id', '=', scope.accountId)
    .where('events.created', '>=', scope.since)
  if (scope.restrictedUserId !== null) query = query.where(visibility(scope.restrictedUserId))
  return query
}

/**
 * The event list's statements, one set per shape: the X-Filter as sent and whether the list is a
 * restricted user's. The account, the retention start and the restricted user are slots, so one
 * statement serves every account. Each row is already its wire JSON (see event-json.ts): the
 * hottest list of the API. Exported for the test that checks its query plans.
 */
export const eventListStatements = defineShaped(
  'event list json',
  (db, shape: { filter: string | null; restricted: boolean }, dialect) => {
    const criteria = (filter: string | null) =>
      listCriteria({
        filter: filter ?? undefined,
        spec: EVENT_FILTERS,
        dialect,
        restriction: shape.restricted ? visibility(stableSlot<number>(dialect, 'user')) : undefined,
        order: { unique: 'events.id', direction: 'desc' },
      })
    /**
     * The events of the blocks of a walk, each block searched by its ids. PostgreSQL gets them
     * through LATERAL, kept whole by OFFSET 0, so that the filter's conditions stay outside: with
     * them inside, a plan could search an index of the filter's kind and time for every block.
     * The blocks only choose which events to read: the page selects the events' columns alone.
     */
    const walked = (walk: PageWalk) => {
      const blocks = (db as Db)
        .selectFrom(sql<{ bucket: number }>`event_range_tallies`.as('b'))
        .where(walk.where)
      const inBlock = sql<SqlBool>`events.id >= ${walk.first} and events.id < ${walk.next}`
      const joined =
        dialect === 'postgres'
          ? blocks.innerJoinLateral(
              (eb) =>
                eb
                  .selectFrom('events')
                  .selectAll()
                  .where('events.account_id', '=', stableSlot<number>(dialect, 'account'))
                  .where(inBlock)
                  .offset(sql.lit(0))
                  .as('events'),
              (join) => join.onTrue(),
            )
          : blocks.innerJoin('events', (join) => join.onTrue()).where(inBlock)
      return joined as unknown as SelectQueryBuilder<Database, 'events', object>
    }
    /**
     * The account's events, narrowed by `where`; with a walk, only those of its blocks of ids; with
     * `bounds`, the statement's RANGE_BOUNDS, computed once (see rangeAside). Never both: a walk
     * is a page in id order, bounds are for one ordered by `created`.
     */
    const rows = (
      where: RawBuilder<SqlBool> | undefined,
      walk?: PageWalk,
      bounds?: RawBuilder<RangeBounds>,
    ) => {
      const from =
        bounds === undefined
          ? (db as Db)
          : (db as Db).with(
              (cte) => cte(RANGE_BOUNDS).materialized(),
              // A raw body is not parenthesised for us.
              () => sql<RangeBounds>`(${bounds})`,
            )
      const events: SelectQueryBuilder<Database, 'events', object> =
        walk === undefined
          ? (from.selectFrom('events') as SelectQueryBuilder<Database, 'events', object>)
          : walked(walk)
      const account = events.where(ofAccount(dialect))
      return where ? account.where(where) : account
    }
    const { where, order } = criteria(shape.filter)
    const query = rows(where)
    const direction = order[0]?.direction ?? 'desc'
    // A `created` range in id order walks only the blocks of ids whose tallies reach into its window
    // (see pageWalk), block after block in the page's order, sorting the events of each (at most 256).
    const walk = pageWalk(shape.filter, dialect)
    // A range of `id` or `created` in the other's order narrows the rows the order's index walks
    // instead of being searched and sorted (see rangeAside).
    const aside = rangeAside(shape.filter, dialect, walk !== undefined)
    const pageRows =
      aside === undefined
        ? rows(where, walk)
        : rows(criteria(aside.filter).where, walk, aside.bounds).where(aside.where)
    const since = stableSlot<string>(dialect, 'since')
    // The retention bound keeps almost every row, so a page must walk the index of its order (and
    // filter) and stop after one page, and a count must take the index of its filter. SQLite,
    // without statistics, would take the bound's range on `(account_id, created)` instead and read
    // the whole account: the unary `+` keeps the bound out of its index choice.
    const retained = dialect === 'sqlite' ? sql<string>`+events.created` : sql<string>`events.created`
    // `results` from the tallies where they answer the list (docs/decisions.md#event-counts);
    // otherwise counted over the filter's index.
    const tallied = shape.restricted ? undefined : tallyPlan(shape.filter, dialect)
    const counted =
      tallied === undefined
        ? query.where(retained, '>=', since).select(sql<number>`count(*)`.as('n'))
        : countFromTallies(db as Db, dialect, tallied)
    // A walk reads each block by its ids: the bound is not searched by either.
    const retainedRows = pageRows.where(
      walk === undefined ? retained : plainColumn('events.created', dialect),
      '>=',
      since,
    )
    // PostgreSQL: the credentials counter beside each row, for the caller to confirm a remembered
    // token by (confirmed-read.ts). SQLite reads the counter for free before the handler.
    const stamp = dialect === 'postgres' ? [counterColumn(CREDENTIALS_COUNTER).as('stamp')] : []
    if (walk === undefined) {
      const { count, page } = listStatements(
        retainedRows.select([eventJson(dialect).as('json'), ...stamp]),
        accountFirst(order, dialect),
        dialect,
        counted,
      )
      return { count, page: joinedJsonPage(page, dialect) }
    }
    // A walk sorts the events of each block it reads (some of them past the page): it sorts their
    // ids, read from the index, and only the page's rows are then read and rendered.
    const walkOrder = (block: string, id: string) =>
      [block, id].map((column) => orderSql({ expression: sql.ref(column), direction }))
    let pageIds = retainedRows.select([sql<number>`events.id`.as('id'), sql<number>`b.bucket`.as('bucket')])
    for (const term of walkOrder('b.bucket', 'events.id')) pageIds = pageIds.orderBy(term)
    const ids = (db as Db).selectFrom(
      pageIds
        .limit(stableSlot<number>(dialect, 'limit'))
        .offset(stableSlot<number>(dialect, 'offset'))
        .as('w'),
    )
    // Each id's row by the primary key. PostgreSQL's generic plan, guessing a tenth of the walk for
    // the page, would hash the whole table instead: LATERAL, kept whole by OFFSET 0, looks each up.
    let page = (
      dialect === 'postgres'
        ? ids.innerJoinLateral(
            (eb) =>
              eb
                .selectFrom('events')
                .selectAll()
                .whereRef('events.id', '=', 'w.id')
                .offset(sql.lit(0))
                .as('events'),
            (join) => join.onTrue(),
          )
        : ids.innerJoin('events', 'events.id', 'w.id')
    )
      .select([eventJson(dialect).as('json'), ...stamp])
      .select(sql<number>`(${counted})`.as('n'))
    // The ids' order, which each engine keeps from the subquery without sorting again.
    for (const term of walkOrder('w.bucket', 'w.id')) page = page.orderBy(term)
    return {
      count: counted.compile() as CompiledQuery<{ n: number }>,
      page: joinedJsonPage(page.compile() as CompiledQuery<{ json: string; n: number }>, dialect),
    }
  },
)

/**
 * A page of events as wire JSON, newest first unless the filter orders otherwise; the id breaks
 * ties so that pages are stable. `stamp` (PostgreSQL, a page with events): the credentials counter
 * as the page's statement saw it.
 */
export async function listEventJson(
  db: Db,
  scope: EventScope,
  filter: string | undefined,
  page: PageRequest,
): Promise<PageResult<string> & { stamp: number | undefined }> {
  const restricted = scope.restrictedUserId !== null
  const list = eventListStatements(db, { filter: filter ?? null, restricted })
  const rows = await paginate(
    db,
    list,
    {
      account: scope.accountId,
      since: scope.since,
      user: scope.restrictedUserId,
      ...countSlots(filter ?? null, scope.since),
    },
    page,
  )
  const stamp = (rows.data[0] as { stamp?: number | string | null } | undefined)?.stamp
  return { ...rows, data: rows.data.map((r) => r.json), stamp: stamp == null ? undefined : Number(stamp) }
}

export async function findEvent(db: Db, scope: EventScope, id: number): Promise<EventRow | undefined> {
  return scoped(db, scope).where('events.id', '=', id).executeTakeFirst()
}

/**
 * Marks the event and every older one seen; for a restricted user only those they could mark one
 * by one (`read_write` on the entity, or their own on none): the older ones they only read stay.
 */
export async function markSeenThrough(db: Db, scope: EventScope, id: number): Promise<void> {
  let query = db
    .updateTable('events')
    .set({ seen: true })
    .where('account_id', '=', scope.accountId)
    .where('id', '<=', id)
    .where('seen', '=', false)
  if (scope.restrictedUserId !== null) query = query.where(visibility(scope.restrictedUserId, true))
  await query.execute()
}

/** Whether `action` on the entity is under way: its event scheduled or started, not yet ended. */
export async function actionUnderWay(
  db: Db,
  accountId: number,
  entity: { type: string; id: number },
  action: string,
): Promise<boolean> {
  const row = await db
    .selectFrom('events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('entity_id', '=', entity.id)
    .where('entity_type', '=', entity.type)
    .where('action', '=', action)
    .where('status', 'in', ['scheduled', 'started'])
    .limit(1)
    .executeTakeFirst()
  return row !== undefined
}

export async function markRead(db: Db, id: number): Promise<void> {
  await db.updateTable('events').set({ read: true }).where('id', '=', id).execute()
}
