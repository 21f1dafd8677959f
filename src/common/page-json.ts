import type { PageResult } from './schemas.ts'

/**
 * The list envelope around items that are already JSON text (rendered by the database), so a
 * page is assembled without parsing or re-serializing its items.
 */
export function pageJson(page: PageResult<string>): string {
  return `{"data":[${page.data.join(',')}],"page":${page.page},"pages":${page.pages},"results":${page.results}}`
}
