import type { Actor } from '../auth/actor.ts'
import { buildEvent, type EventAction } from '../events/event-builder.ts'
import type { EventEntity, NewEvent } from '../events/event-types.ts'

/**
 * Events of the profile area (docs/service-facts.md#events). They concern one user's own
 * profile, so no grant makes them visible to other restricted users (`grant: null`); unrestricted
 * users see them as account events.
 */
export function profileEvent(
  actor: Actor,
  action: EventAction,
  entity: EventEntity,
  created: string,
): NewEvent {
  return buildEvent(actor, action, { entity, grant: null }, created)
}

/** `profile` events carry no id (docs/service-facts.md#events). */
export const profileEntity = (actor: Actor): EventEntity => ({
  type: 'profile',
  id: null,
  label: actor.user.username,
  url: '/v4/profile',
})
