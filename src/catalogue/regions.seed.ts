import type { Db } from '../db/connect.ts'
import { upsertRows } from '../db/rows.ts'
import { storedCapabilities } from '../modules/regions/region-capabilities.ts'
import { type CatalogueAvailability, type CatalogueRegion, defaultAvailability } from './regions.ts'
import { SHIPPED_REGIONS } from './regions-file.ts'

/**
 * Makes the region tables match the catalogue. Upserts keep a region's `status`, which an operator
 * may have set (an outage) independently of the catalogue.
 */
export async function syncRegions(
  db: Db,
  regions: CatalogueRegion[] = SHIPPED_REGIONS.regions,
  availability: CatalogueAvailability[] = defaultAvailability(regions),
): Promise<void> {
  const ids = regions.map((r) => r.id)
  const rows = regions.map((region, position) => ({
    id: region.id,
    status: region.status,
    label: region.label,
    country: region.country,
    capabilities: storedCapabilities(region.capabilities),
    resolvers_ipv4: region.resolvers.ipv4,
    resolvers_ipv6: region.resolvers.ipv6,
    site_type: region.site_type,
    position,
  }))
  await upsertRows(db, 'regions', rows, ['id'], ['status'])
  if (ids.length > 0) await db.deleteFrom('regions').where('id', 'not in', ids).execute()
  await db.deleteFrom('region_availability').execute()
  if (availability.length > 0) {
    await db
      .insertInto('region_availability')
      .values(availability.map((a, position) => ({ ...a, position })))
      .execute()
  }
}
