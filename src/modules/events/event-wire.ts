import type { Event } from './events.schemas.ts'
import type { EventRow } from './events.table.ts'

/**
 * An event's wire shape, keys in the recorded order (docs/service-facts.md#events). Lists are
 * rendered from `json_tail`, stored with the row when it is written: the JSON of every key after
 * `read`. The list query puts the head (`id`, `created`, `seen`, `read`) in front, since `seen` and
 * `read` change after the event is recorded. A page then costs one short string per row.
 */

/** Entity kinds whose wire id is not the bare number stored. */
const ENTITY_ID_FORMAT: Record<string, (id: number) => string> = {
  image: (id) => `private/${id}`,
}

const numericId = (id: string): number | string => (/^[0-9]{1,15}$/.test(id) ? Number(id) : id)

/** The columns the tail is rendered from. */
export type EventTailFields = Omit<EventRow, 'id' | 'created' | 'seen' | 'read' | 'json_tail'>

type EventTail = Omit<Event, 'id' | 'created' | 'seen' | 'read'>

function toEventTail(row: EventTailFields): EventTail {
  const format = row.entity_type ? ENTITY_ID_FORMAT[row.entity_type] : undefined
  return {
    percent_complete: row.percent_complete,
    // Finished jobs report no time left, as 0 (recorded: linodego TestEventPoller_InstancePower).
    time_remaining:
      row.status === 'finished' ? 0 : row.time_remaining === null ? null : Number(row.time_remaining),
    rate: row.rate,
    duration: row.duration,
    action: row.action,
    username: row.username,
    entity:
      row.entity_type === null
        ? null
        : {
            label: row.entity_label,
            id: row.entity_id === null ? null : format ? format(row.entity_id) : row.entity_id,
            type: row.entity_type,
            url: row.entity_url,
          },
    status: row.status as Event['status'],
    secondary_entity:
      row.secondary_entity_type === null || row.secondary_entity_id === null
        ? null
        : {
            id: numericId(row.secondary_entity_id),
            type: row.secondary_entity_type,
            label: row.secondary_entity_label,
            url: row.secondary_entity_url,
          },
    message: row.message,
  }
}

export function toEvent(row: EventRow): Event {
  return { id: row.id, created: row.created, seen: row.seen, read: row.read, ...toEventTail(row) }
}

/** The stored tail: `"percent_complete":…,"message":…}` (the JSON object without its opening brace and head). */
export function eventTail(fields: EventTailFields): string {
  return JSON.stringify(toEventTail(fields)).slice(1)
}
