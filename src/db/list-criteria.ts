import { type Kysely, type RawBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import { type OrderTerm, type PageRequest, paginateQuery } from '../common/pagination.ts'
import type { PageResult } from '../common/schemas.ts'
import { compileFilter, type FilterSpec } from '../common/x-filter.ts'
import type { SqlDialect } from './dialects/dialect.ts'

export interface ListCriteriaInput {
  /** The X-Filter header as sent, or undefined. */
  filter: string | undefined
  /** The list's filterable fields and their columns (kept beside its repository). */
  spec: FilterSpec
  dialect: SqlDialect
  /** What the caller may see beyond the account (a restricted user's grants), if anything. */
  restriction?: RawBuilder<SqlBool> | undefined
  order: {
    /** Default order after the filter's `+order_by`, if any. */
    after?: readonly OrderTerm[]
    /** A unique column that makes pages stable (or columns that are unique together). */
    unique: string | readonly string[]
    /** Direction of the unique column when the filter does not order: `asc` unless said. */
    direction?: 'asc' | 'desc'
    /** `follow` (default): the unique column runs the way the filter orders; `fixed`: never. */
    uniqueFollowsFilter?: boolean
  }
}

export interface ListCriteria {
  where: RawBuilder<SqlBool> | undefined
  order: OrderTerm[]
}

/**
 * The WHERE and ORDER BY of a list: the client's X-Filter, the caller's restriction and the list's
 * default order, ending with a unique key. Every list builds them here, so a filter is always
 * compiled against the list's own fields and never dropped.
 */
export function listCriteria(input: ListCriteriaInput): ListCriteria {
  const compiled = compileFilter(input.filter, input.spec, input.dialect)
  const where =
    compiled.where && input.restriction
      ? sql<SqlBool>`(${compiled.where} and ${input.restriction})`
      : (compiled.where ?? input.restriction)
  const { after = [], unique, direction = 'asc', uniqueFollowsFilter = true } = input.order
  const uniqueDirection = uniqueFollowsFilter ? (compiled.order?.direction ?? direction) : direction
  return {
    where,
    order: [
      ...(compiled.order ? [compiled.order] : []),
      ...after,
      ...(typeof unique === 'string' ? [unique] : unique).map((column) => ({
        expression: sql.ref(column),
        direction: uniqueDirection,
      })),
    ],
  }
}

/** A page of a cold list: `query` narrowed by the criteria's WHERE, in their order. */
export function pageByCriteria<DB, TB extends keyof DB, O>(
  // biome-ignore lint/suspicious/noExplicitAny: runs on any database interface
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O>,
  criteria: ListCriteria,
  page: PageRequest,
): Promise<PageResult<O>> {
  return paginateQuery(db, criteria.where ? query.where(criteria.where) : query, criteria.order, page)
}
