import type { NewEvent } from './event-types.ts'
import { type EventTailFields, eventTail } from './event-wire.ts'
import type { NewEventRow } from './events.table.ts'

/** The row recorded for an event (a write that inserts its event in its own statement needs it). */
export function toRow(event: NewEvent): NewEventRow {
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

/** The columns of an event row, in the order the insert statements name them. */
export const EVENT_COLUMNS = [
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
