import type { Generated, Insertable, Selectable, Updateable } from 'kysely'

export interface ConfigTable {
  id: Generated<number>
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
  created: string
  updated: string
}

export type ConfigRow = Selectable<ConfigTable>
export type NewConfigRow = Insertable<ConfigTable>
export type ConfigRowUpdate = Updateable<ConfigTable>
