import { shippedCatalogue } from '../../../catalogue/catalogue-json.ts'
import data from '../../../catalogue/data/types.json' with { type: 'json' }
import { parseTypeCatalogue } from './types-file.ts'

/**
 * The instance type catalogue: the real plans of 2024 (ids, labels, memory and disk in MB,
 * transfer and network_out in GB and Mbps, prices in USD) as the public type list returned them.
 * Two regions were priced differently that year (Jakarta and Sao Paulo), by fixed factors
 * (`region_price_factors` in the data file).
 */
export interface TypePrice {
  hourly: number
  monthly: number
}

export interface RegionPrice extends TypePrice {
  id: string
}

/** What a plan gives an instance, in the units above; the catalogue and its table hold them alike. */
export interface TypeResources {
  memory: number
  disk: number
  transfer: number
  vcpus: number
  gpus: number
  network_out: number
}

export interface CatalogueType extends TypeResources {
  id: string
  label: string
  class: 'nanode' | 'standard' | 'highmem' | 'dedicated' | 'gpu'
  price: TypePrice
  region_prices: RegionPrice[]
  addons: { backups: { price: TypePrice; region_prices: RegionPrice[] } }
  successor: string | null
}

/** The shipped plans (catalogue/data/types.json), validated once at start. */
export const COMPUTE_TYPES: CatalogueType[] = shippedCatalogue('types.json', () => parseTypeCatalogue(data))
