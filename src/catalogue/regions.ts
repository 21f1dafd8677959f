/** A region as a catalogue lists it: the shipped data/regions.json, or an operator's REGIONS_FILE. */
export interface CatalogueRegion {
  id: string
  label: string
  country: string
  capabilities: string[]
  resolvers: { ipv4: string; ipv6: string }
  status: 'ok' | 'outage'
  site_type: string
}

/**
 * Plans whose availability the API reports, in the recorded order
 * (docs/service-facts.md#region-catalogue).
 */
export const AVAILABILITY_PLANS = [
  'gpu-rtx6000-1.1',
  'gpu-rtx6000-2.1',
  'gpu-rtx6000-3.1',
  'gpu-rtx6000-4.1',
  'premium4096.7',
  'premium8192.7',
  'premium16384.7',
  'premium32768.7',
  'premium65536.7',
  'premium98304.7',
  'premium131072.7',
  'premium262144.7',
  'premium524288.7',
]

export interface CatalogueAvailability {
  region: string
  plan: string
  available: boolean
}

/**
 * Availability records, ordered by region and then plan as recorded: premium plans are available
 * where the region has `Premium Plans`; every GPU entry was recorded unavailable.
 */
export function defaultAvailability(regions: CatalogueRegion[]): CatalogueAvailability[] {
  return [...regions]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .flatMap((region) =>
      AVAILABILITY_PLANS.map((plan) => ({
        region: region.id,
        plan,
        available: plan.startsWith('premium') && region.capabilities.includes('Premium Plans'),
      })),
    )
}
