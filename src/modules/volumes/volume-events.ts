import { instanceEntity } from '../compute/compute-events.ts'
import { buildEvent, type EventParts, type EventSource } from '../events/event-builder.ts'
import { aboutGrantedEntity, grantedEntity } from '../grants/granted-entity.ts'
import type { VolumeRow } from './volumes.table.ts'

type VolumeRef = Pick<VolumeRow, 'id' | 'label'>

export type VolumeAction =
  | 'volume_create'
  | 'volume_update'
  | 'volume_delete'
  | 'volume_attach'
  | 'volume_detach'
  | 'volume_resize'

export const volumeEntity = (volume: VolumeRef) => grantedEntity('volume', '/v4/volumes', volume)

/**
 * `volume_*` events name the volume (and, for attach and detach, the instance as secondary
 * entity); the volume's grant decides who else sees them.
 */
export function volumeEvent(
  source: EventSource,
  action: VolumeAction,
  volume: VolumeRef,
  created: string,
  parts: Pick<EventParts, 'status' | 'percentComplete' | 'duration'> & {
    instance?: { id: number; label: string }
  } = {},
) {
  const { instance, ...rest } = parts
  return buildEvent(
    source,
    action,
    {
      ...aboutGrantedEntity(volumeEntity(volume)),
      ...(instance && { secondary: { ...instanceEntity(instance), id: instance.id } }),
      ...rest,
    },
    created,
  )
}
