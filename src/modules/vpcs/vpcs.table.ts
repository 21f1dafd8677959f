import type { Generated, Insertable, Selectable } from 'kysely'

export interface VpcTable {
  id: Generated<number>
  account_id: number
  label: string
  description: string
  region: string
  created: string
  updated: string | null
  /** Wire JSON of the fields before the nested array (see vpc-json.ts). */
  json_head: string
  /** Wire JSON of the fields after the nested array, with the closing brace. */
  json_tail: string
}

export type VpcRow = Selectable<VpcTable>
export type NewVpcRow = Insertable<VpcTable>

/** Per-account limits an operator may raise (`cloudplane account limits`); NULL: the default. */
export interface AccountLimitTable {
  account_id: number
  vpcs_per_region: number | null
  /** Compute instances the account may have (compute's instance limit). */
  instances: number | null
}
