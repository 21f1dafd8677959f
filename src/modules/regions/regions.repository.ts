import { filterFields } from '../../common/filter-columns.ts'
import { listStatements, type PageRequest, paginate } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import { listCriteria, pageByCriteria } from '../../db/list-criteria.ts'
import { defineShaped } from '../../db/prepared.ts'
import { findRow, rowsOf } from '../../db/rows.ts'
import type { RegionAvailabilityRow, RegionRow } from './regions.table.ts'

/**
 * Regions have no filterable fields at 4.174.0; availability has three
 * (docs/service-facts.md#filterable-fields). A filter on anything else is refused with
 * `Cannot filter on <field>`.
 */
export const REGION_FILTERS: FilterSpec = {}
export const AVAILABILITY_FILTERS = filterFields({ string: ['region', 'plan'], boolean: ['available'] })

/** The region list: public and read on every client's start-up, so prepared once per filter. */
const regionListStatements = defineShaped('region list', (db, shape: { filter: string | null }, dialect) => {
  const { where, order } = listCriteria({
    filter: shape.filter ?? undefined,
    spec: REGION_FILTERS,
    dialect,
    order: { unique: 'position' },
  })
  let query = (db as Db).selectFrom('regions').selectAll()
  if (where) query = query.where(where)
  const { count, page } = listStatements(query, order, dialect)
  return { count, page }
})

export async function listRegions(
  db: Db,
  filter: string | undefined,
  page: PageRequest,
): Promise<PageResult<RegionRow>> {
  return paginate(db, regionListStatements(db, { filter: filter ?? null }), {}, page)
}

export const findRegion = (db: Db, id: string) => findRow(db, 'regions', { id })

/** The site type of each of these regions that exists, by id. */
export async function findSiteTypes(db: Db, ids: string[]): Promise<Map<string, string>> {
  const distinct = [...new Set(ids)]
  if (distinct.length === 0) return new Map()
  const rows = await db
    .selectFrom('regions')
    .select(['id', 'site_type'])
    .where('id', 'in', distinct)
    .execute()
  return new Map(rows.map((r) => [r.id, r.site_type]))
}

/** Catalogue order after the filter's own. */
export function listAvailability(db: Db, filter: string | undefined, page: PageRequest) {
  const order = { unique: 'position', uniqueFollowsFilter: false }
  const criteria = listCriteria({ filter, spec: AVAILABILITY_FILTERS, dialect: dialectOf(db), order })
  return pageByCriteria(db, db.selectFrom('region_availability').selectAll(), criteria, page)
}

export const listRegionAvailability = (db: Db, region: string): Promise<RegionAvailabilityRow[]> =>
  rowsOf(db, 'region_availability', { region }).orderBy('position').execute()

/** An operator marks a region `outage` or back `ok`; the catalogue sync never overwrites it. */
export async function setRegionStatus(db: Db, id: string, status: 'ok' | 'outage'): Promise<boolean> {
  const result = await db.updateTable('regions').set({ status }).where('id', '=', id).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
