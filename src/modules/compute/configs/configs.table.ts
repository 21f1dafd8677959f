import type { Insertable, Selectable, Updateable } from 'kysely'
import type { SerialKey, Timestamps } from '../../../db/columns.ts'

export interface ConfigTable extends SerialKey, Timestamps {
  instance_id: number
  label: string
  kernel: string
  comments: string
  memory_limit: number
  root_device: string
  run_level: string
  virt_mode: string
  /** JSON object of the helper flags. */
  helpers: string
  /** JSON object `sda`..`sdh` → `{disk_id, volume_id}` or null. */
  devices: string
  initrd: number | null
}

export type ConfigRow = Selectable<ConfigTable>
export type NewConfigRow = Insertable<ConfigTable>
export type ConfigRowUpdate = Updateable<ConfigTable>
