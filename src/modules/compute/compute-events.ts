import type { EventSecondaryEntity, EventStatus, NewEvent } from '../events/events.repository.ts'

/**
 * Events of the compute slice (api-facts 9.1, 9.2): the instance is always the entity (type
 * `compute`), a config or disk the secondary entity, and the instance's grant decides which
 * restricted users see them.
 */
interface InstanceRef {
  id: number
  label: string
}

interface Actorish {
  accountId: number
  user: { id: number; username: string }
}

export const configEntity = (
  instanceId: number,
  config: { id: number; label: string },
): EventSecondaryEntity => ({
  type: 'compute_config',
  id: config.id,
  label: config.label,
  url: `/v4/compute/instances/${instanceId}/configs/${config.id}`,
})

export const diskEntity = (
  instanceId: number,
  disk: { id: number; label: string },
): EventSecondaryEntity => ({
  type: 'disks',
  id: disk.id,
  label: disk.label,
  url: `/v4/compute/instances/${instanceId}/disks/${disk.id}`,
})

/** Job-like actions (create, boot, …) finish at once here; instant ones are notifications. */
export function computeEvent(
  actor: Actorish,
  action: string,
  instance: InstanceRef,
  created: string,
  options: { secondary?: EventSecondaryEntity; status?: EventStatus } = {},
): NewEvent {
  const status = options.status ?? 'finished'
  return {
    accountId: actor.accountId,
    user: { id: actor.user.id, username: actor.user.username },
    action,
    entity: {
      type: 'compute',
      id: instance.id,
      label: instance.label,
      url: `/v4/compute/instances/${instance.id}`,
    },
    secondary: options.secondary ?? null,
    status,
    percentComplete: status === 'finished' ? 100 : null,
    duration: status === 'finished' ? 0 : null,
    grant: { type: 'compute', id: instance.id },
    created,
  }
}
