import { type Kysely, sql } from 'kysely'
import type { Db } from '../../src/db/connect.ts'
import { type EventTailFields, eventTail } from '../../src/modules/events/event-wire.ts'
import type { NewEventRow } from '../../src/modules/events/events.table.ts'

/** The actions the tests that insert events directly cycle through, by an event's number. */
export const cycledAction = (i: number): string =>
  ['vpc_create', 'vpc_update', 'subnet_delete'][i % 3] as string

export interface TestEvent {
  /** An id of the test's choosing: tests place events in blocks of ids far above the sequence's. */
  id: number
  accountId: number
  action: string
  /** Null for an event without an entity. */
  entityType: string | null
  created: string
  read?: boolean
}

/**
 * An events row as recordEvents would store it (its wire tail included), for tests that insert many
 * events at chosen ids and times in one statement, bypassing the id sequence.
 */
export function eventRow(event: TestEvent): NewEventRow {
  const entity = event.entityType
  const fields: EventTailFields = {
    account_id: event.accountId,
    user_id: null,
    username: 'someone',
    action: event.action,
    entity_type: entity,
    entity_id: entity === null ? null : 7,
    entity_label: entity === null ? null : 'x',
    entity_url: null,
    secondary_entity_type: null,
    secondary_entity_id: null,
    secondary_entity_label: null,
    secondary_entity_url: null,
    status: 'notification',
    percent_complete: null,
    rate: null,
    time_remaining: null,
    duration: null,
    message: '',
    grant_entity_type: null,
    grant_entity_id: null,
  }
  return {
    ...fields,
    id: event.id,
    ...(event.read !== undefined && { read: event.read }),
    created: event.created,
    json_tail: eventTail(fields),
  }
}

// biome-ignore lint/suspicious/noExplicitAny: the tally tables read as they are, whatever the schema's version
const untyped = (db: Db) => db as unknown as Kysely<any>

/**
 * Every event tally with events in it, in key order (a delete leaves a bucket at zero, a recount
 * none): for comparing the tallies the triggers kept with a recount of the events.
 */
export const storedTallies = async (db: Db) => ({
  days: await untyped(db)
    .selectFrom('event_tallies')
    .select(['account_id', 'day', 'action', 'entity_key', 'read', 'n'])
    .where('n', '>', 0)
    .orderBy(sql`account_id, day, action, entity_key, read`)
    .execute(),
  ranges: await untyped(db)
    .selectFrom('event_range_tallies')
    .select(['account_id', 'scale', 'bucket', 'action', 'entity_key', 'read', 'n', 'entity_type'])
    .where('n', '>', 0)
    .orderBy(sql`account_id, scale, bucket, action, entity_key, read`)
    .execute(),
})
