import type { Insertable, Selectable } from 'kysely'
import type { SerialKey, Timestamps } from '../../../db/columns.ts'

export interface DiskTable extends SerialKey, Timestamps {
  instance_id: number
  label: string
  status: string
  /** Size in MB. */
  size: number
  filesystem: string
}

export type DiskRow = Selectable<DiskTable>
export type NewDiskRow = Insertable<DiskTable>
