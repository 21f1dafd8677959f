import type { Insertable, Selectable, Updateable } from 'kysely'
import type { AccountOwned, Tagged, Timestamps } from '../../db/columns.ts'

export type VolumeStatus = 'creating' | 'active' | 'resizing'

export interface VolumeTable extends AccountOwned, Tagged, Timestamps {
  label: string
  region: string
  /** GB. */
  size: number
  status: VolumeStatus
  /** The instance it is attached to, or null. */
  linode_id: number | null
  /** The instance's config profile it was attached through, or null. */
  config_id: number | null
  hardware_type: 'hdd' | 'nvme'
  encryption: 'enabled' | 'disabled'
}

export type VolumeRow = Selectable<VolumeTable>
export type NewVolumeRow = Insertable<VolumeTable>
export type VolumeRowUpdate = Updateable<VolumeTable>
/** A volume with the label of the instance it is attached to. */
export type VolumeView = VolumeRow & { linode_label: string | null }
