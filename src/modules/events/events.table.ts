import type { Generated, Insertable, Selectable } from 'kysely'

export interface EventTable {
  id: Generated<number>
  account_id: number
  user_id: number | null
  username: string | null
  action: string
  entity_type: string | null
  entity_id: number | null
  entity_label: string | null
  entity_url: string | null
  secondary_entity_type: string | null
  /** Text: secondary ids may be numbers or slugs such as `compute/debian12`. */
  secondary_entity_id: string | null
  secondary_entity_label: string | null
  secondary_entity_url: string | null
  status: string
  percent_complete: number | null
  rate: string | null
  time_remaining: string | null
  duration: number | null
  message: string | null
  seen: Generated<boolean>
  read: Generated<boolean>
  /** The entity whose grant decides whether a restricted user sees the event (NULL: the acting user only). */
  grant_entity_type: string | null
  grant_entity_id: number | null
  created: string
  /** JSON of the wire keys after `read` (see event-wire.ts). */
  json_tail: string
}

export type EventRow = Selectable<EventTable>
export type NewEventRow = Insertable<EventTable>
