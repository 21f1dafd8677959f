import { type Kysely, type RawBuilder, type SelectQueryBuilder, sql } from 'kysely'
import { type PreparedQuery, runPrepared } from '../db/prepared.ts'
import { ErrorCollector } from './errors.ts'
import type { PageQuery, PageResult } from './schemas.ts'

/** Bounds and defaults from the Decisions table (api-facts, decision 5). */
export const PAGE_SIZE_MIN = 25
export const PAGE_SIZE_MAX = 500
export const PAGE_SIZE_DEFAULT = 100

export interface PageRequest {
  page: number
  pageSize: number
}

export function parsePageQuery(query: PageQuery | undefined): PageRequest {
  const errors = new ErrorCollector()
  let page = 1
  let pageSize = PAGE_SIZE_DEFAULT
  if (query?.page !== undefined) {
    page = Number(query.page)
    if (!/^[1-9][0-9]*$/.test(query.page) || !Number.isSafeInteger(page)) {
      errors.add('page must be an integer of at least 1', 'page')
    }
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
}

/**
 * Runs a count and one page of a query in SQL. `order` must end with a unique key so that pages are
 * stable.
 */
export async function paginate<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  request: PageRequest,
  order: OrderTerm[],
): Promise<PageResult<O>> {
  const counted = await query
    .clearSelect()
    .clearOrderBy()
    .select(sql<number>`count(*)`.as('n'))
    .executeTakeFirst()
  const results = Number((counted as { n?: number } | undefined)?.n ?? 0)
  const window = pageWindow(results, request)
  if (results === 0) return { data: [], page: 1, pages: 1, results: 0 }
  let paged = query
  for (const term of order) paged = paged.orderBy(sql`${term.expression} ${sql.raw(term.direction)}`)
  const data = await paged.limit(window.limit).offset(window.offset).execute()
  return { data, page: window.page, pages: window.pages, results }
}

/** Maps a page of rows to the wire shape. */
export function mapPage<R, T>(page: PageResult<R>, map: (row: R) => T): PageResult<T> {
  return { data: page.data.map(map), page: page.page, pages: page.pages, results: page.results }
}

/**
 * A list query prepared once (see db/prepared.ts). `page` returns the rows of one page, each with
 * the total count `n` (an uncorrelated subquery, computed once), so a page is one statement;
 * `count` alone serves empty lists and pages past the end.
 */
export interface PreparedList<O> {
  count: PreparedQuery<{ n: number }>
  page: PreparedQuery<O & { n: number }>
}

/** `paginate` for a prepared list: the same maths, with per-request values filled into slots. */
export async function paginatePrepared<O>(
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
