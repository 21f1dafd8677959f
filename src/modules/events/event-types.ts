import type { GrantEntityType } from '../grants/grant-types.ts'

/** What an event is about, as its wire `entity` shows it. */
export interface EventEntity {
  type: string
  id: number | null
  label: string | null
  url: string | null
}

/** The entity an event also concerns (a subnet's VPC, say); slugs such as `compute/debian12` are ids too. */
export interface EventSecondaryEntity {
  type: string
  id: number | string
  label: string | null
  url: string | null
}

export type EventStatus = 'failed' | 'finished' | 'notification' | 'scheduled' | 'started'

/** An event to record (see `buildEvent`, the one way domains build them). */
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
