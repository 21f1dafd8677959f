import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { notFound } from '../../common/errors.ts'
import type { ListQuery } from '../../common/pagination.ts'
import { pageJson } from '../../common/rendered-json.ts'
import { keepsPages, pageKey, renderedPagesOf } from '../../common/rendered-page-cache.ts'
import { addSeconds, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { confirmedRead } from '../auth/confirmed-read.ts'
import { assertEntityGrant, grantedListScope } from '../grants/authorize.ts'
import type { GrantEntityType } from '../grants/grant-types.ts'
import type { EventAction } from './event-builder.ts'
import { oldestEventSince, readEventPageStamp } from './event-page-stamp.ts'
import type { NewEvent } from './event-types.ts'
import { toEvent } from './event-wire.ts'
import * as repo from './events.repository.ts'
import type { Event } from './events.schemas.ts'

/** Events are listed for 90 days (docs/service-facts.md#events). */
const RETENTION_SECONDS = 90 * 24 * 3600

/** What the caller may see: their account's events of the retention window, only granted ones if restricted. */
function scopeOf(ctx: RequestContext, now = nowTimestamp(ctx.clock)): repo.EventScope {
  return { ...grantedListScope(ctx.actor), since: addSeconds(now, -RETENTION_SECONDS) }
}

/** The list page as JSON text, rendered by the database, as of `now` (default: the clock's now). */
async function listEventsJson(ctx: RequestContext, query: ListQuery, now?: string): Promise<string> {
  return pageJson(await repo.listEventJson(ctx.db, scopeOf(ctx, now), query.filter, query.page))
}

/**
 * A page rendered every time (no page kept, or a restricted user's): its statement confirms an
 * actor let in on the token cache's remembered lookup (confirmed-read.ts), so that it costs one
 * round trip, not two. Whether the user is restricted is as the lookup saw it; the stamp shows
 * whether that still holds.
 */
function renderedEventsPage(ctx: RequestContext, query: ListQuery): Promise<string> {
  return confirmedRead(ctx, async (c) => {
    const page = await repo.listEventJson(c.db, scopeOf(c), query.filter, query.page)
    return { value: pageJson(page), stamp: page.stamp }
  })
}

/**
 * The page's bytes. An unrestricted caller's come from the pages kept per account
 * (common/rendered-page-cache.ts) while the account's events version has not moved and no event
 * has left the 90-day window since the page was rendered; else rendered now, and kept. The
 * statement that reads the version also confirms an actor let in on the token cache's remembered
 * lookup (confirmed-read.ts). A restricted user's page depends on their grants too, and is
 * rendered every time, for a confirmed actor.
 */
export async function listEventsPage(ctx: RequestContext, query: ListQuery): Promise<Buffer | string> {
  if (!keepsPages(ctx.db) || ctx.actor.user.restricted) return renderedEventsPage(ctx, query)
  return confirmedRead<RequestContext, Buffer | string>(ctx, async (c) => {
    // Confirmed since the remembered lookup, the user may have become restricted.
    if (c.actor.user.restricted) return { value: await listEventsJson(c, query), stamp: undefined }
    const now = nowTimestamp(c.clock)
    const { version, credentials } = await readEventPageStamp(c.db, c.actor.accountId)
    const pages = renderedPagesOf(c.db, 'event pages')
    const key = pageKey(c.actor.accountId, query)
    const kept = pages.get(key, version, now)
    if (kept !== undefined) return { value: kept, stamp: credentials }
    // Read after the version: an event added meanwhile moves the version past the page's stamp.
    const oldest = await oldestEventSince(c.db, c.actor.accountId, addSeconds(now, -RETENTION_SECONDS))
    const text = await listEventsJson(c, query, now)
    // The oldest event leaves the window one second after it is 90 days old.
    const until = oldest === null ? null : addSeconds(oldest, RETENTION_SECONDS + 1)
    return { value: pages.set(key, text, { stamp: version, from: now, until }), stamp: credentials }
  })
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

/**
 * Marks every event up to and including this one as seen. A restricted user needs `read_write` on
 * the event's entity for it (reading one needs `read_only`); an event of their own, on no granted
 * entity, is theirs to mark.
 */
export async function markSeen(ctx: RequestContext, ids: { eventId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const event = await accessEvent(tx, ids)
    if (event.grant_entity_type !== null && event.grant_entity_id !== null) {
      const type = event.grant_entity_type as GrantEntityType
      await assertEntityGrant(tx.db, tx.actor, type, event.grant_entity_id, 'read_write')
    }
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

/** For services whose work is one at a time per entity (an image capture of an instance). */
export function actionUnderWay(
  db: Db,
  accountId: number,
  entity: { type: string; id: number },
  action: EventAction,
): Promise<boolean> {
  return repo.actionUnderWay(db, accountId, entity, action)
}

/** Moves a job's event along (started → finished or failed). */
export function updateEventProgress(db: Db, id: number, progress: repo.EventProgress): Promise<void> {
  return repo.updateEventProgress(db, id, progress)
}
