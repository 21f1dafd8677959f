import type { Insertable, Selectable, Updateable } from 'kysely'
import type { AccountOwned, Tagged, Timestamps } from '../../../db/columns.ts'

export interface InstanceTable extends AccountOwned, Tagged, Timestamps {
  label: string
  /** The wire field `group` (a reserved word in SQL). */
  display_group: string
  status: string
  type: string
  region: string
  /** Wire id of the image deployed at creation, or NULL. */
  image: string | null
  /** The public IPv4 address (unique per region). */
  ipv4: string
  ipv6: string
  host_uuid: string
  watchdog_enabled: boolean
  /** JSON object of alert thresholds. */
  alerts: string
  has_user_data: boolean
  /** The config profile last booted (its interfaces are active while running), or NULL. */
  booted_config_id: number | null
  /** The script the instance was deployed with, or NULL. */
  stackscript_id: number | null
}

export type InstanceRow = Selectable<InstanceTable>
export type NewInstanceRow = Insertable<InstanceTable>
export type InstanceRowUpdate = Updateable<InstanceTable>

export interface Ipv4PoolTable {
  region: string
  allocated: number
}

/** Host numbers of a region's pool given back by deleted instances, handed out first. */
export interface Ipv4FreeTable {
  region: string
  host: number
}
