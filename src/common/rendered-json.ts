import type { CompiledQuery } from 'kysely'
import type { SqlDialect } from '../db/dialects/dialect.ts'
import type { PageResult } from './schemas.ts'

/**
 * The list envelope around items that are already JSON text, so a page is assembled without
 * parsing or re-serializing its items.
 */
export function pageJson(page: PageResult<string>): string {
  return `{"data":[${page.data.join(',')}],"page":${page.page},"pages":${page.pages},"results":${page.results}}`
}

/**
 * A page statement whose rows are `json` (an item's wire JSON) and `n` (the list's count) turned
 * into one row holding the page's items joined by commas, on SQLite: one string handed over
 * instead of a hundred rows, each an array and an object in JS, joined again by `pageJson`. The
 * rows are joined in the page's order (SQLite keeps an ordered subquery's order for the
 * aggregate, see vpc-json.ts); an empty page is no row, as before. PostgreSQL's rows come as they
 * are.
 */
export function joinedJsonPage<R extends { json: string; n: number }>(
  page: CompiledQuery<R>,
  dialect: SqlDialect,
): CompiledQuery<R> {
  if (dialect !== 'sqlite') return page
  return {
    ...page,
    sql: `select group_concat(p.json, ',') as json, max(p.n) as n from (${page.sql}) as p having count(*) > 0`,
  }
}
