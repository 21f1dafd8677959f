import type { Insertable, Selectable } from 'kysely'
import type { SerialKey } from '../../../db/columns.ts'
import type { WireJsonParts } from '../vpcs.table.ts'

export interface SubnetTable extends SerialKey, WireJsonParts {
  vpc_id: number
  label: string
  /** Canonical IPv4 CIDR. */
  ipv4: string
  created: string
  updated: string | null
}

export type SubnetRow = Selectable<SubnetTable>
export type NewSubnetRow = Insertable<SubnetTable>
