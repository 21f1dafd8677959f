import { notFound } from '../../common/errors.ts'
import { mapPage, type PageRequest } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { compileFilter, type FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import * as repo from './regions.repository.ts'
import type { Region, RegionAvailability } from './regions.schemas.ts'
import type { RegionAvailabilityRow, RegionRow } from './regions.table.ts'

/** Regions have no filterable fields at 4.174.0; availability has three (api-facts 2.2). */
const REGION_FILTERS: FilterSpec = {}
const AVAILABILITY_FILTERS: FilterSpec = {
  region: { column: 'region', type: 'string' },
  plan: { column: 'plan', type: 'string' },
  available: { column: 'available', type: 'boolean' },
}

export function toRegion(row: RegionRow): Region {
  return {
    id: row.id,
    label: row.label,
    country: row.country,
    capabilities: JSON.parse(row.capabilities) as string[],
    status: row.status,
    resolvers: { ipv4: row.resolvers_ipv4, ipv6: row.resolvers_ipv6 },
    site_type: row.site_type,
  }
}

const toAvailability = (row: RegionAvailabilityRow): RegionAvailability => ({
  region: row.region,
  plan: row.plan,
  available: row.available,
})

export async function listRegions(
  db: Db,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Region>> {
  // Still parsed, so a filter on anything is refused with `Cannot filter on <field>`.
  compileFilter(filter, REGION_FILTERS, dialectOf(db))
  return mapPage(await repo.listRegions(db, page), toRegion)
}

export async function getRegion(db: Db, id: string): Promise<Region> {
  const row = await repo.findRegion(db, id)
  if (row === undefined) throw notFound()
  return toRegion(row)
}

export async function listAvailability(
  db: Db,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<RegionAvailability>> {
  const compiled = compileFilter(filter, AVAILABILITY_FILTERS, dialectOf(db))
  return mapPage(await repo.listAvailability(db, page, compiled), toAvailability)
}

export async function getRegionAvailability(db: Db, id: string): Promise<RegionAvailability[]> {
  if ((await repo.findRegion(db, id)) === undefined) throw notFound()
  return (await repo.listRegionAvailability(db, id)).map(toAvailability)
}
