import type { Selectable } from 'kysely'

export interface ComputeTypeTable {
  id: string
  label: string
  class: string
  memory: number
  disk: number
  transfer: number
  vcpus: number
  gpus: number
  network_out: number
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
