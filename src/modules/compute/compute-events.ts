import type { EventParts } from '../events/event-builder.ts'
import { aboutGrantedEntity, grantedEntity } from '../grants/granted-entity.ts'

/**
 * Event parts of the compute slice (docs/service-facts.md#events): the instance is always the
 * entity (type `compute`), a config, disk or image the secondary entity, and the instance's grant
 * decides which restricted users see them. Events are built with `buildEvent`.
 */
type InstanceRef = { id: number; label: string }
type SecondaryEntity = NonNullable<EventParts['secondary']>

export const instanceEntity = (instance: InstanceRef) =>
  grantedEntity('compute', '/v4/compute/instances', instance)

export const configEntity = (instanceId: number, config: { id: number; label: string }): SecondaryEntity => ({
  type: 'compute_config',
  id: config.id,
  label: config.label,
  url: `/v4/compute/instances/${instanceId}/configs/${config.id}`,
})

export const diskEntity = (instanceId: number, disk: { id: number; label: string }): SecondaryEntity => ({
  type: 'disks',
  id: disk.id,
  label: disk.label,
  url: `/v4/compute/instances/${instanceId}/disks/${disk.id}`,
})

/** A public or private image an instance was deployed from (`id` in its wire form). */
export const imageEntity = (image: { id: string; label: string }): SecondaryEntity => ({
  type: 'image',
  id: image.id,
  label: image.label,
  url: `/v4/images/${image.id}`,
})

/** The parts of an event about `instance`, visible to those granted the instance. */
export const onInstance = (instance: InstanceRef, secondary: SecondaryEntity | null = null): EventParts => ({
  ...aboutGrantedEntity(instanceEntity(instance)),
  secondary,
})

/** A change of one of the instance's config profiles: a notification about the instance. */
export const onConfig = (instance: InstanceRef, config: { id: number; label: string }): EventParts =>
  onInstance(instance, configEntity(instance.id, config))

/**
 * The same for job-like actions (create, boot, shutdown, delete, …): they complete within the
 * request here, so their events are already finished. Instant changes (updates, profile create and
 * delete) stay notifications (`onInstance`).
 */
export const finishedOnInstance = (
  instance: InstanceRef,
  secondary: SecondaryEntity | null = null,
): EventParts => ({
  ...onInstance(instance, secondary),
  status: 'finished',
  percentComplete: 100,
  duration: 0,
})
