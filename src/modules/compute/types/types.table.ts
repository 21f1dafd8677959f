import type { Selectable } from 'kysely'
import type { TypeResources } from './types.catalogue.ts'

export interface ComputeTypeTable extends TypeResources {
  id: string
  label: string
  class: string
  /** JSON `{hourly, monthly}`. */
  price: string
  /** JSON array of `{id, hourly, monthly}`. */
  region_prices: string
  /** JSON `{backups: {price, region_prices}}`. */
  addons: string
  successor: string | null
  position: number
}

export type ComputeTypeRow = Selectable<ComputeTypeTable>
