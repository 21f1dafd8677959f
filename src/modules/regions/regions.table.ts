import type { Selectable } from 'kysely'

export interface RegionTable {
  id: string
  label: string
  country: string
  /** JSON array of capability names. */
  capabilities: string
  resolvers_ipv4: string
  resolvers_ipv6: string
  status: string
  site_type: string
  /** Catalogue order, which is the order the list is served in. */
  position: number
}

export interface RegionAvailabilityTable {
  region: string
  plan: string
  available: boolean
  position: number
}

export type RegionRow = Selectable<RegionTable>
export type RegionAvailabilityRow = Selectable<RegionAvailabilityTable>
