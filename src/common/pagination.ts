import { type CompiledQuery, type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely'
import { dialectOf, type SqlDialect } from '../db/dialects/dialect.ts'
import { type PreparedQuery, prepare, runPrepared, stableSlot } from '../db/prepared.ts'
import { ErrorCollector } from './errors.ts'
import type { PageQuery, PageResult } from './schemas.ts'

/** Bounds and defaults (docs/decisions.md#paging). */
export const PAGE_SIZE_MIN = 25
export const PAGE_SIZE_MAX = 500
export const PAGE_SIZE_DEFAULT = 100

export interface PageRequest {
  page: number
  pageSize: number
}

/** What a list route asks of its service: the page and the X-Filter header as sent. */
export interface ListQuery {
  page: PageRequest
  filter: string | undefined
}

/** A page no list reaches, whose offset is still an exact integer at the largest page size. */
const PAGE_BEYOND_EVERY_LIST = Math.floor(Number.MAX_SAFE_INTEGER / PAGE_SIZE_MAX)

export function parsePageQuery(query: PageQuery | undefined): PageRequest {
  const errors = new ErrorCollector()
  let page = 1
  let pageSize = PAGE_SIZE_DEFAULT
  if (query?.page !== undefined) {
    if (!/^[1-9][0-9]*$/.test(query.page)) errors.add('page must be an integer of at least 1', 'page')
    // Any larger page is past the last of every list, and is answered with the last page, as
    // the document says of pages beyond 2^64 / page_size; the cap keeps the offset exact.
    page = Math.min(Number(query.page), PAGE_BEYOND_EVERY_LIST)
  }
  if (query?.page_size !== undefined) {
    pageSize = Number(query.page_size)
    if (!/^[0-9]+$/.test(query.page_size) || pageSize < PAGE_SIZE_MIN || pageSize > PAGE_SIZE_MAX) {
      errors.add(`page_size must be between ${PAGE_SIZE_MIN} and ${PAGE_SIZE_MAX}`, 'page_size')
    }
  }
  errors.throwIfAny()
  return { page, pageSize }
}

export interface PageWindow {
  page: number
  pages: number
  offset: number
  limit: number
}

/**
 * A page past the last is answered with the last page; an empty list is page 1 of 1.
 */
export function pageWindow(results: number, request: PageRequest): PageWindow {
  const pages = Math.max(1, Math.ceil(results / request.pageSize))
  const page = Math.min(request.page, pages)
  return { page, pages, offset: (page - 1) * request.pageSize, limit: request.pageSize }
}

export interface OrderTerm {
  expression: RawBuilder<unknown>
  direction: 'asc' | 'desc'
  /** Where NULLs go, when the engine's own placement is not the one wanted. */
  nulls?: 'first' | 'last'
}

/** An ORDER BY term as SQL. */
export function orderSql(term: OrderTerm): RawBuilder<unknown> {
  const nulls = term.nulls === undefined ? '' : ` nulls ${term.nulls}`
  return sql`${term.expression} ${sql.raw(`${term.direction}${nulls}`)}`
}

/**
 * A list as two statements: `page` returns the rows of one page, each with the total count `n`
 * (an uncorrelated subquery, computed once), so a page is one statement; `count` alone serves
 * empty lists and pages past the end. Built once per shape for hot lists (`defineShaped`), or per
 * request for the others; either way `paginate` runs it.
 */
export interface ListStatements<O> {
  count: CompiledQuery<{ n: number }>
  page: CompiledQuery<O & { n: number }>
}

export interface PreparedList<O> {
  count: PreparedQuery<{ n: number }>
  page: PreparedQuery<O & { n: number }>
}

/**
 * The statements of a list from its query (its FROM, joins, WHERE and selection) and its order,
 * which must end with a unique key so that pages are stable. `limit` and `offset` are slots.
 * `countQuery`, when given, is the list's own count (selecting `n`), for a list that counts its
 * rows faster than by reading them (the event list).
 */
export function listStatements<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  order: readonly OrderTerm[],
  dialect: SqlDialect,
  // biome-ignore lint/suspicious/noExplicitAny: a count may read other tables than the list
  countQuery?: SelectQueryBuilder<any, any, { n: number }>,
): ListStatements<O> {
  const count = countQuery ?? query.clearSelect().clearOrderBy().select(sql<number>`count(*)`.as('n'))
  let paged = query.select(sql<number>`(${count})`.as('n'))
  for (const term of order) paged = paged.orderBy(orderSql(term))
  const page = paged.limit(stableSlot<number>(dialect, 'limit')).offset(stableSlot<number>(dialect, 'offset'))
  return {
    count: count.compile() as CompiledQuery<{ n: number }>,
    page: page.compile() as CompiledQuery<O & { n: number }>,
  }
}

/**
 * The one paging engine: a page of a prepared list, with per-request values filled into its
 * slots. A page past the last is answered with the last page; an empty list is page 1 of 1.
 */
export async function paginate<O>(
  // biome-ignore lint/suspicious/noExplicitAny: runs on any database interface
  db: Kysely<any>,
  list: PreparedList<O>,
  values: Record<string, unknown>,
  request: PageRequest,
): Promise<PageResult<O>> {
  const offset = (request.page - 1) * request.pageSize
  const first = await runPrepared(db, list.page, { ...values, limit: request.pageSize, offset })
  const found = first.rows[0]
  if (found !== undefined) {
    const results = Number(found.n)
    return { data: first.rows, page: request.page, pages: Math.ceil(results / request.pageSize), results }
  }
  // Nothing on the page asked for: the list is empty, or the page is past the last one.
  const counted = await runPrepared(db, list.count, values)
  const results = Number(counted.rows[0]?.n ?? 0)
  if (results === 0) return { data: [], page: 1, pages: 1, results: 0 }
  const window = pageWindow(results, request)
  const rows = await runPrepared(db, list.page, { ...values, limit: window.limit, offset: window.offset })
  return { data: rows.rows, page: window.page, pages: window.pages, results }
}

/** A page of a list built for this request only (cold lists; hot ones are `defineShaped`). */
export function paginateQuery<DB, TB extends keyof DB, O>(
  // biome-ignore lint/suspicious/noExplicitAny: runs on any database interface
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O>,
  order: readonly OrderTerm[],
  request: PageRequest,
): Promise<PageResult<O>> {
  const statements = listStatements(query, order, dialectOf(db))
  return paginate(db, { count: prepare(statements.count), page: prepare(statements.page) }, {}, request)
}

/** Maps a page of rows to the wire shape. */
export function mapPage<R, T>(page: PageResult<R>, map: (row: R) => T): PageResult<T> {
  return { data: page.data.map(map), page: page.page, pages: page.pages, results: page.results }
}
