import type { ErrorCollector } from '../../common/errors.ts'
import type { RegionRow } from './regions.table.ts'

/** What a region offers; the names are the API's own, as listed in a region's `capabilities`. */
export type RegionCapability = 'Computes' | 'VPCs' | 'Premium Plans' | (string & {})

/** A region's capabilities are stored as a JSON array of names. */
export const storedCapabilities = (capabilities: readonly string[]): string => JSON.stringify(capabilities)

export const parseCapabilities = (stored: string): string[] => JSON.parse(stored) as string[]

export const regionOffers = (
  region: Pick<RegionRow, 'capabilities'>,
  capability: RegionCapability,
): boolean => parseCapabilities(region.capabilities).includes(capability)

/**
 * Whether a resource needing `capability` can be created in `region` (undefined: no such region).
 * The reason it cannot goes to `errors` on `field`.
 */
export function checkRegionOffers(
  region: RegionRow | undefined,
  capability: RegionCapability,
  errors: ErrorCollector,
  field = 'region',
): region is RegionRow {
  if (region === undefined) {
    errors.add('Region not found', field)
    return false
  }
  if (!regionOffers(region, capability)) {
    errors.add(`Region does not support ${capability}`, field)
    return false
  }
  return checkRegionAvailable(region, errors, field)
}

/** The refusal of a create in a region marked `outage`: nothing new is placed there until it is back. */
export const regionUnavailableReason = (regionId: string): string =>
  `Region ${regionId} is currently unavailable`

/** Whether new resources can be placed in `region` now (it is not in an outage). */
export function checkRegionAvailable(
  region: Pick<RegionRow, 'id' | 'status'>,
  errors: ErrorCollector,
  field = 'region',
): boolean {
  if (region.status !== 'outage') return true
  errors.add(regionUnavailableReason(region.id), field)
  return false
}
