import { sql } from 'kysely'
import { type PageRequest, type PreparedList, paginate, paginatePrepared } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { CompiledFilter } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import { PreparedCache, prepare, stableSlot } from '../../db/prepared.ts'
import type { RegionAvailabilityRow, RegionRow } from './regions.table.ts'

const regionLists = new PreparedCache<PreparedList<RegionRow>>()

/** The region list: public and read on every client's start-up, so prepared once (db/prepared.ts). */
export async function listRegions(db: Db, page: PageRequest): Promise<PageResult<RegionRow>> {
  const dialect = dialectOf(db)
  const list = regionLists.get(dialect, () => {
    const count = db.selectFrom('regions').select(sql<number>`count(*)`.as('n'))
    return {
      count: prepare(count.compile()),
      page: prepare(
        db
          .selectFrom('regions')
          .selectAll()
          .select(sql<number>`(${count})`.as('n'))
          .orderBy('position')
          .limit(stableSlot<number>(dialect, 'limit'))
          .offset(stableSlot<number>(dialect, 'offset'))
          .compile(),
      ),
    }
  })
  return paginatePrepared(db, list, {}, page)
}

export async function findRegion(db: Db, id: string): Promise<RegionRow | undefined> {
  return db.selectFrom('regions').selectAll().where('id', '=', id).executeTakeFirst()
}

export async function listAvailability(
  db: Db,
  page: PageRequest,
  filter: CompiledFilter,
): Promise<PageResult<RegionAvailabilityRow>> {
  let query = db.selectFrom('region_availability').selectAll()
  if (filter.where) query = query.where(filter.where)
  const order = filter.order ? [filter.order] : []
  return paginate(query, page, [...order, { expression: sql.ref('position'), direction: 'asc' }])
}

export async function listRegionAvailability(db: Db, region: string): Promise<RegionAvailabilityRow[]> {
  return db
    .selectFrom('region_availability')
    .selectAll()
    .where('region', '=', region)
    .orderBy('position')
    .execute()
}

/** An operator marks a region `outage` or back `ok`; the catalogue sync never overwrites it. */
export async function setRegionStatus(db: Db, id: string, status: 'ok' | 'outage'): Promise<boolean> {
  const result = await db.updateTable('regions').set({ status }).where('id', '=', id).executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
