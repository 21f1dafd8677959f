import { sql } from 'kysely'
import { type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { CompiledFilter } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { ComputeTypeRow } from './types.table.ts'

export async function listTypes(
  db: Db,
  page: PageRequest,
  filter: CompiledFilter,
): Promise<PageResult<ComputeTypeRow>> {
  let query = db.selectFrom('compute_types').selectAll()
  if (filter.where) query = query.where(filter.where)
  const order = filter.order ? [filter.order] : []
  return paginate(query, page, [...order, { expression: sql.ref('position'), direction: 'asc' }])
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
