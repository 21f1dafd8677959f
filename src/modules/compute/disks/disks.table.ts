import type { Generated, Insertable, Selectable } from 'kysely'

export interface DiskTable {
  id: Generated<number>
  instance_id: number
  label: string
  status: string
  /** Size in MB. */
  size: number
  filesystem: string
  created: string
  updated: string
}

export type DiskRow = Selectable<DiskTable>
export type NewDiskRow = Insertable<DiskTable>
