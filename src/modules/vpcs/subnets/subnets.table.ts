import type { Generated, Insertable, Selectable } from 'kysely'

export interface SubnetTable {
  id: Generated<number>
  vpc_id: number
  label: string
  /** Canonical IPv4 CIDR. */
  ipv4: string
  created: string
  updated: string | null
  /** Wire JSON of the fields before the nested array (see vpc-json.ts). */
  json_head: string
  /** Wire JSON of the fields after the nested array, with the closing brace. */
  json_tail: string
}

export type SubnetRow = Selectable<SubnetTable>
export type NewSubnetRow = Insertable<SubnetTable>
