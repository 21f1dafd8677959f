import { sameNameColumns } from '../../../common/filter-columns.ts'
import { type PageRequest, paginateQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { listCriteria } from '../../../db/list-criteria.ts'
import type { ComputeTypeRow } from './types.table.ts'

/** The filterable fields of the type list. */
const TYPE_FILTERS: FilterSpec = sameNameColumns({
  class: 'string',
  disk: 'integer',
  gpus: 'integer',
  label: 'string',
  memory: 'integer',
  network_out: 'integer',
  transfer: 'integer',
  vcpus: 'integer',
})

/** The catalogue in its own order after the filter's. */
export async function listTypes(
  db: Db,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<ComputeTypeRow>> {
  const criteria = listCriteria({
    filter,
    spec: TYPE_FILTERS,
    dialect: dialectOf(db),
    order: { unique: 'position', uniqueFollowsFilter: false },
  })
  let query = db.selectFrom('compute_types').selectAll()
  if (criteria.where) query = query.where(criteria.where)
  return paginateQuery(db, query, criteria.order, page)
}

export async function findType(db: Db, id: string): Promise<ComputeTypeRow | undefined> {
  return db.selectFrom('compute_types').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The types of a page of instances, in one query. */
export async function findTypes(db: Db, ids: readonly string[]): Promise<ComputeTypeRow[]> {
  if (ids.length === 0) return []
  return db
    .selectFrom('compute_types')
    .selectAll()
    .where('id', 'in', [...new Set(ids)])
    .execute()
}
