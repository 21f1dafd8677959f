import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { notFound } from '../../common/errors.ts'
import type { ListQuery } from '../../common/pagination.ts'
import { pageJson } from '../../common/rendered-json.ts'
import { addSeconds, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { grantedListScope } from '../grants/authorize.ts'
import type { NewEvent } from './event-types.ts'
import { toEvent } from './event-wire.ts'
import * as repo from './events.repository.ts'
import type { Event } from './events.schemas.ts'

/** Events are listed for 90 days (docs/service-facts.md#events). */
const RETENTION_SECONDS = 90 * 24 * 3600

/** What the caller may see: their account's events of the retention window, only granted ones if restricted. */
function scopeOf(ctx: RequestContext): repo.EventScope {
  return { ...grantedListScope(ctx.actor), since: addSeconds(nowTimestamp(ctx.clock), -RETENTION_SECONDS) }
}

/** The list page as JSON text, rendered by the database. */
export async function listEventsJson(ctx: RequestContext, query: ListQuery): Promise<string> {
  return pageJson(await repo.listEventJson(ctx.db, scopeOf(ctx), query.filter, query.page))
}

/** An event the caller may see, within the retention window; else 404. */
async function accessEvent(ctx: RequestContext, { eventId }: { eventId: number }) {
  const row = await repo.findEvent(ctx.db, scopeOf(ctx), eventId)
  if (row === undefined) throw notFound()
  return row
}

export async function getEvent(ctx: RequestContext, ids: { eventId: number }): Promise<Event> {
  return toEvent(await accessEvent(ctx, ids))
}

/** Marks every event up to and including this one as seen. */
export async function markSeen(ctx: RequestContext, ids: { eventId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    await accessEvent(tx, ids)
    await repo.markSeenThrough(tx.db, scopeOf(tx), ids.eventId)
  })
}

export async function markRead(ctx: RequestContext, ids: { eventId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    await accessEvent(tx, ids)
    await repo.markRead(tx.db, ids.eventId)
  })
}

/**
 * Records events, for every domain. Call it with the transaction of the change that emits them,
 * so the change and its events commit (or vanish) together.
 */
export function recordEvents(db: Db, events: NewEvent[]): Promise<number[]> {
  return repo.recordEvents(db, events)
}

export function recordEvent(db: Db, event: NewEvent): Promise<number> {
  return repo.recordEvent(db, event)
}

/** Moves a job's event along (started → finished or failed). */
export function updateEventProgress(db: Db, id: number, progress: repo.EventProgress): Promise<void> {
  return repo.updateEventProgress(db, id, progress)
}
