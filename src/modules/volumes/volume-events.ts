import { instanceEntity } from '../compute/compute-events.ts'
import { buildEvent, type EventParts, type EventSource } from '../events/event-builder.ts'
import type { VolumeRow } from './volumes.table.ts'

type VolumeRef = Pick<VolumeRow, 'id' | 'label'>

export type VolumeAction =
  | 'volume_create'
  | 'volume_update'
  | 'volume_delete'
  | 'volume_attach'
  | 'volume_detach'
  | 'volume_resize'

export const volumeEntity = (volume: VolumeRef) => ({
  type: 'volume',
  id: volume.id,
  label: volume.label,
  url: `/v4/volumes/${volume.id}`,
})

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
      entity: volumeEntity(volume),
      grant: { type: 'volume', id: volume.id },
      ...(instance && { secondary: { ...instanceEntity(instance), id: instance.id } }),
      ...rest,
    },
    created,
  )
}
