import { type RawBuilder, type SqlBool, sql } from 'kysely'
import {
  type OrderTerm,
  type PageRequest,
  type PreparedList,
  paginatePrepared,
} from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import { fill, PreparedCache, type PreparedQuery, prepare, slot, stableSlot } from '../../db/prepared.ts'
import type { GrantEntityType } from '../grants/grant-types.ts'
import { eventJson } from './event-json.ts'
import { type EventTailFields, eventTail } from './event-wire.ts'
import type { EventRow, NewEventRow } from './events.table.ts'

export interface EventEntity {
  type: string
  id: number | null
  label: string | null
  url: string | null
}

export interface EventSecondaryEntity {
  type: string
  id: number | string
  label: string | null
  url: string | null
}

export type EventStatus = 'failed' | 'finished' | 'notification' | 'scheduled' | 'started'

export interface NewEvent {
  accountId: number
  /** The user who acted, or null for the system (jobs, expiries). */
  user: { id: number; username: string } | null
  action: string
  entity: EventEntity | null
  secondary?: EventSecondaryEntity | null
  status?: EventStatus
  percentComplete?: number | null
  duration?: number | null
  message?: string | null
  /** The entity whose grant lets a restricted user see the event; null: only the acting user. */
  grant: { type: GrantEntityType; id: number } | null
  created: string
}

function toRow(event: NewEvent): NewEventRow {
  const fields: EventTailFields = {
    account_id: event.accountId,
    user_id: event.user?.id ?? null,
    username: event.user?.username ?? null,
    action: event.action,
    entity_type: event.entity?.type ?? null,
    entity_id: event.entity?.id ?? null,
    entity_label: event.entity?.label ?? null,
    entity_url: event.entity?.url ?? null,
    secondary_entity_type: event.secondary?.type ?? null,
    secondary_entity_id: event.secondary ? String(event.secondary.id) : null,
    secondary_entity_label: event.secondary?.label ?? null,
    secondary_entity_url: event.secondary?.url ?? null,
    status: event.status ?? 'notification',
    percent_complete: event.percentComplete ?? null,
    rate: null,
    time_remaining: null,
    duration: event.duration ?? null,
    message: event.message ?? '',
    grant_entity_type: event.grant?.type ?? null,
    grant_entity_id: event.grant?.id ?? null,
  }
  return { ...fields, created: event.created, json_tail: eventTail(fields) }
}

/**
 * Records events. Call it with the transaction of the change that emits them, so the change and
 * its events commit (or vanish) together.
 */
export async function recordEvents(db: Db, events: NewEvent[]): Promise<number[]> {
  if (events.length === 0) return []
  const rows = events.map(toRow)
  // One row, the common case on every write: a statement prepared once (db/prepared.ts).
  if (rows.length === 1) {
    const inserted = await db.executeQuery(fill(insertOne(db), rows[0] as Record<string, unknown>))
    return inserted.rows.map((r) => r.id)
  }
  const inserted = await db.insertInto('events').values(rows).returning('id').execute()
  return inserted.map((r) => r.id)
}

const EVENT_COLUMNS = [
  'account_id',
  'user_id',
  'username',
  'action',
  'entity_type',
  'entity_id',
  'entity_label',
  'entity_url',
  'secondary_entity_type',
  'secondary_entity_id',
  'secondary_entity_label',
  'secondary_entity_url',
  'status',
  'percent_complete',
  'rate',
  'time_remaining',
  'duration',
  'message',
  'grant_entity_type',
  'grant_entity_id',
  'created',
  'json_tail',
] as const satisfies ReadonlyArray<keyof NewEventRow>

const insertStatements = new PreparedCache<PreparedQuery<{ id: number }>>()

function insertOne(db: Db): PreparedQuery<{ id: number }> {
  return insertStatements.get(dialectOf(db), () =>
    prepare(
      db
        .insertInto('events')
        .values(Object.fromEntries(EVENT_COLUMNS.map((c) => [c, slot(c)])) as NewEventRow)
        .returning('id')
        .compile(),
    ),
  )
}

export async function recordEvent(db: Db, event: NewEvent): Promise<number> {
  const [id] = await recordEvents(db, [event])
  return id as number
}

/** Moves a job's event along (started → finished or failed), keeping its stored JSON in step. */
export async function updateEventProgress(
  db: Db,
  id: number,
  progress: { status: EventStatus; percentComplete?: number | null; duration?: number | null },
): Promise<void> {
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst()
  if (row === undefined) return
  const fields: EventTailFields = {
    ...row,
    status: progress.status,
    percent_complete: progress.percentComplete ?? null,
    duration: progress.duration ?? null,
  }
  await db
    .updateTable('events')
    .set({
      status: fields.status,
      percent_complete: fields.percent_complete,
      duration: fields.duration,
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

function visibility(uid: number | RawBuilder<number>): RawBuilder<SqlBool> {
  return sql<SqlBool>`((events.grant_entity_type is null and events.user_id = ${uid}) or exists (select 1 from entity_grants g where g.user_id = ${uid} and g.entity_type = events.grant_entity_type and g.entity_id = events.grant_entity_id))`
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

const listQueries = new PreparedCache<PreparedList<{ json: string }>>()

/**
 * A page of events, each already rendered to its wire JSON by the database (see event-json.ts).
 * The SQL is prepared once per filter (the hottest list of the API; see db/prepared.ts), so
 * `filterKey` must identify everything `compile` puts into it.
 */
export async function listEventJson(
  db: Db,
  scope: EventScope,
  page: PageRequest,
  filterKey: string,
  compile: () => { where: RawBuilder<SqlBool> | undefined; order: OrderTerm[] },
): Promise<PageResult<string>> {
  const dialect = dialectOf(db)
  const restricted = scope.restrictedUserId !== null
  const key = `${dialect}\u0000${restricted ? 'restricted' : 'all'}\u0000${filterKey}`
  const list = listQueries.get(key, () => {
    const { where, order } = compile()
    let query = db
      .selectFrom('events')
      .where('events.account_id', '=', stableSlot<number>(dialect, 'account'))
      .where('events.created', '>=', stableSlot<string>(dialect, 'since'))
    if (restricted) query = query.where(visibility(stableSlot<number>(dialect, 'user')))
    if (where) query = query.where(where)
    const count = query.select(sql<number>`count(*)`.as('n'))
    let paged = query.select([eventJson(dialect).as('json'), sql<number>`(${count})`.as('n')])
    for (const term of order) paged = paged.orderBy(sql`${term.expression} ${sql.raw(term.direction)}`)
    return {
      count: prepare(count.compile()),
      page: prepare(
        paged
          .limit(stableSlot<number>(dialect, 'limit'))
          .offset(stableSlot<number>(dialect, 'offset'))
          .compile(),
      ),
    }
  })
  const rows = await paginatePrepared(
    db,
    list,
    { account: scope.accountId, since: scope.since, user: scope.restrictedUserId },
    page,
  )
  return { ...rows, data: rows.data.map((r) => r.json) }
}

export async function findEvent(db: Db, scope: EventScope, id: number): Promise<EventRow | undefined> {
  return scoped(db, scope).where('events.id', '=', id).executeTakeFirst()
}

export async function markSeenThrough(db: Db, scope: EventScope, id: number): Promise<void> {
  let query = db
    .updateTable('events')
    .set({ seen: true })
    .where('account_id', '=', scope.accountId)
    .where('id', '<=', id)
    .where('seen', '=', false)
  if (scope.restrictedUserId !== null) query = query.where(visibility(scope.restrictedUserId))
  await query.execute()
}

export async function markRead(db: Db, id: number): Promise<void> {
  await db.updateTable('events').set({ read: true }).where('id', '=', id).execute()
}
