import type { PublicContext } from '../../common/context.ts'
import { badRequest, ErrorCollector, notFound } from '../../common/errors.ts'
import { type ListQuery, mapPage } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import { checkRegionAvailable, parseCapabilities } from './region-capabilities.ts'
import * as repo from './regions.repository.ts'
import type { Region, RegionAvailability } from './regions.schemas.ts'
import type { RegionAvailabilityRow, RegionRow } from './regions.table.ts'

export function toRegion(row: RegionRow): Region {
  return {
    id: row.id,
    label: row.label,
    country: row.country,
    capabilities: parseCapabilities(row.capabilities),
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

export async function listRegions(ctx: PublicContext, query: ListQuery): Promise<PageResult<Region>> {
  return mapPage(await repo.listRegions(ctx.db, query.filter, query.page), toRegion)
}

/** A region by id; else 404. */
async function accessRegion(ctx: PublicContext, { regionId }: { regionId: string }): Promise<RegionRow> {
  const row = await repo.findRegion(ctx.db, regionId)
  if (row === undefined) throw notFound()
  return row
}

export async function getRegion(ctx: PublicContext, ids: { regionId: string }): Promise<Region> {
  return toRegion(await accessRegion(ctx, ids))
}

export async function listAvailability(
  ctx: PublicContext,
  query: ListQuery,
): Promise<PageResult<RegionAvailability>> {
  return mapPage(await repo.listAvailability(ctx.db, query.filter, query.page), toAvailability)
}

export async function getRegionAvailability(
  ctx: PublicContext,
  ids: { regionId: string },
): Promise<RegionAvailability[]> {
  const region = await accessRegion(ctx, ids)
  return (await repo.listRegionAvailability(ctx.db, region.id)).map(toAvailability)
}

/** A region by id, for the domains that place things in one; undefined when there is none. */
export function findRegion(db: Db, id: string): Promise<RegionRow | undefined> {
  return repo.findRegion(db, id)
}

/** The site type (`core`, `distributed`) of each of these regions that exists, by id. */
export const findSiteTypes = (db: Db, ids: string[]): Promise<Map<string, string>> =>
  repo.findSiteTypes(db, ids)

/**
 * The region a create places something in: a 400 on `field` when there is no such region or it is
 * marked `outage` (every create that takes a region goes through this or checkRegionOffers).
 */
export async function requireAvailableRegion(
  ctx: { db: Db },
  ids: { regionId: string },
  field = 'region',
): Promise<RegionRow> {
  const region = await repo.findRegion(ctx.db, ids.regionId)
  if (region === undefined) throw badRequest('Region not found', field)
  const errors = new ErrorCollector()
  checkRegionAvailable(region, errors, field)
  errors.throwIfAny()
  return region
}

/** Marks a region `outage` or back `ok` (an operator, or the emulator's controls); false: no such region. */
export function setRegionStatus(db: Db, regionId: string, status: 'ok' | 'outage'): Promise<boolean> {
  return repo.setRegionStatus(db, regionId, status)
}
