import type { GrantEntityType } from './grant-types.ts'

/** An entity that grants cover, as events name it: its grant type, id, label and API address. */
export interface GrantedEntity {
  type: GrantEntityType
  id: number
  label: string
  url: string
}

/** The entity at `collection`/`id` (`/v4/volumes`, `/v4/compute/instances`, …). */
export const grantedEntity = (
  type: GrantEntityType,
  collection: string,
  { id, label }: { id: number; label: string },
): GrantedEntity => ({ type, id, label, url: `${collection}/${id}` })

/**
 * The parts of an event about `entity` itself: restricted users see it while they hold a grant on
 * the entity (unrestricted users see every event of their account).
 */
export const aboutGrantedEntity = (entity: GrantedEntity) => ({
  entity,
  grant: { type: entity.type, id: entity.id },
})
