import type { RawBuilder, SelectQueryBuilder, SqlBool } from 'kysely'
import type { Db } from '../db/connect.ts'
import { dialectOf } from '../db/dialects/dialect.ts'
import { listCriteria } from '../db/list-criteria.ts'
import { type ListQuery, paginateQuery } from './pagination.ts'
import type { PageResult } from './schemas.ts'
import type { FilterSpec } from './x-filter.ts'

export interface FilteredListFields {
  /** The list's filterable fields and their columns. */
  spec: FilterSpec
  /** The column (or columns) that end the order, so that pages are stable. */
  unique: string | readonly string[]
  /** What a restricted caller may see (their grants), if anything. */
  restriction?: RawBuilder<SqlBool> | undefined
}

/**
 * A page of a cold list whose rows `query` already holds to the owner (the account, the user, the
 * domain…): the client's X-Filter compiled against the list's own fields, then the unique columns.
 */
export function pageOfFilteredList<DB, TB extends keyof DB, O>(
  db: Db,
  query: SelectQueryBuilder<DB, TB, O>,
  fields: FilteredListFields,
  list: ListQuery,
): Promise<PageResult<O>> {
  const { where, order } = listCriteria({
    filter: list.filter,
    spec: fields.spec,
    dialect: dialectOf(db),
    restriction: fields.restriction,
    order: { unique: fields.unique },
  })
  return paginateQuery(db, where ? query.where(where) : query, order, list.page)
}
