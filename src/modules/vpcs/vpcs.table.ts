import type { Insertable, Selectable } from 'kysely'
import type { AccountOwned } from '../../db/columns.ts'

/** A VPC's and a subnet's wire JSON around their nested array, kept with the row (see vpc-json.ts). */
export interface WireJsonParts {
  /** The fields before the nested array. */
  json_head: string
  /** The fields after the nested array, with the closing brace. */
  json_tail: string
}

export interface VpcTable extends AccountOwned, WireJsonParts {
  label: string
  description: string
  region: string
  created: string
  updated: string | null
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
