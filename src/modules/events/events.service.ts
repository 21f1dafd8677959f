import { type SqlBool, sql } from 'kysely'
import { notFound } from '../../common/errors.ts'
import { pageJson } from '../../common/page-json.ts'
import type { PageRequest } from '../../common/pagination.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { Actor } from '../auth/actor.ts'
import { toEvent } from './event-wire.ts'
import * as repo from './events.repository.ts'
import type { Event } from './events.schemas.ts'

/** Events are listed for 90 days (api-facts 9.1). */
const RETENTION_SECONDS = 90 * 24 * 3600

const isImageId = (value: unknown) => typeof value === 'string' && value.startsWith('private/')

/** `entity.id` accepts the number or, for images, `private/<n>`. */
function parseEntityId(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined
  if (typeof value === 'string') {
    const m = /^(?:private\/)?([0-9]{1,15})$/.exec(value)
    return m ? Number(m[1]) : undefined
  }
  return undefined
}

export const EVENT_FILTERS: FilterSpec = {
  id: { column: 'events.id', type: 'integer' },
  action: { column: 'events.action', type: 'string' },
  created: { column: 'events.created', type: 'timestamp' },
  'entity.id': {
    column: 'events.entity_id',
    type: 'integer',
    nullable: true,
    parse: parseEntityId,
    scope: (value) => (isImageId(value) ? sql<SqlBool>`events.entity_type = 'image'` : undefined),
  },
  'entity.type': { column: 'events.entity_type', type: 'string', nullable: true },
  read: { column: 'events.read', type: 'boolean' },
}

function scopeOf(actor: Actor, clock: Clock): repo.EventScope {
  return {
    accountId: actor.accountId,
    since: addSeconds(nowTimestamp(clock), -RETENTION_SECONDS),
    restrictedUserId: actor.user.restricted ? actor.user.id : null,
  }
}

/**
 * The list page as JSON text. Newest first unless the filter orders otherwise; the id breaks ties
 * so pages are stable.
 */
export async function listEventsJson(
  db: Db,
  clock: Clock,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<string> {
  const compile = () => {
    const compiled = compileFilter(filter, EVENT_FILTERS, dialectOf(db))
    const direction = compiled.order?.direction ?? 'desc'
    return {
      where: compiled.where,
      order: [...(compiled.order ? [compiled.order] : []), { expression: sql.ref('events.id'), direction }],
    }
  }
  return pageJson(await repo.listEventJson(db, scopeOf(actor, clock), page, filter ?? '', compile))
}

export async function getEvent(db: Db, clock: Clock, actor: Actor, id: number): Promise<Event> {
  const row = await repo.findEvent(db, scopeOf(actor, clock), id)
  if (row === undefined) throw notFound()
  return toEvent(row)
}

/** Marks every event up to and including this one as seen. */
export async function markSeen(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  const scope = scopeOf(actor, clock)
  await inTransaction(db, async (trx) => {
    if ((await repo.findEvent(trx, scope, id)) === undefined) throw notFound()
    await repo.markSeenThrough(trx, scope, id)
  })
}

export async function markRead(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  const scope = scopeOf(actor, clock)
  await inTransaction(db, async (trx) => {
    if ((await repo.findEvent(trx, scope, id)) === undefined) throw notFound()
    await repo.markRead(trx, id)
  })
}
