import type { Actor } from '../auth/actor.ts'
import type { EventEntity, NewEvent } from '../events/events.repository.ts'

/**
 * Events of the profile area (api-facts 9.2). They concern one user's own profile, so no grant
 * makes them visible to other restricted users (`grant: null`); unrestricted users see them as
 * account events.
 */
export function profileEvent(actor: Actor, action: string, entity: EventEntity, created: string): NewEvent {
  return {
    accountId: actor.accountId,
    user: { id: actor.user.id, username: actor.user.username },
    action,
    entity,
    grant: null,
    created,
  }
}

/** `profile` events carry no id (api-facts 9.1). */
export const profileEntity = (actor: Actor): EventEntity => ({
  type: 'profile',
  id: null,
  label: actor.user.username,
  url: '/v4/profile',
})
