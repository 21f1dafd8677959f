import type { TSchema } from 'typebox'
import type { ScopeCategory } from '../modules/auth/scopes.ts'
import type { RouteAuth } from '../plugins/auth.ts'
import { type ListQuery, parsePageQuery } from './pagination.ts'
import { errorResponses, FilterHeadersSchema, type PageQuery, PageQuerySchema } from './schemas.ts'

/**
 * What every route states about itself; the request parts (params, body…) ride along. An id form
 * hidden from the document has no operationId.
 */
interface RouteDoc {
  operationId?: string
  summary: string
  tags: string[]
}

/**
 * A route's options: its schema as written, its 200 answer beside the error envelope, and who may
 * call it. The parts are spread in the order given, so the OpenAPI document reads as before.
 */
export function route<const S extends RouteDoc, R extends TSchema>(auth: RouteAuth, schema: S, ok: R) {
  return { schema: { ...schema, response: { 200: ok, ...errorResponses } }, config: { auth } }
}

/** A list route: the page query and the X-Filter header in, a page of items out. */
export function listRoute<const S extends RouteDoc, R extends TSchema>(auth: RouteAuth, schema: S, page: R) {
  return route(auth, { ...schema, querystring: PageQuerySchema, headers: FilterHeadersSchema }, page)
}

/** The page and X-Filter a list route received, as its service takes them. */
export function listInput(request: {
  query: PageQuery | undefined
  headers: { 'x-filter'?: string }
}): ListQuery {
  return { page: parsePageQuery(request.query), filter: request.headers['x-filter'] }
}

/** Who may call a category's routes: reads need `<category>:read_only`, writes `<category>:read_write`. */
export function categoryAuth(category: ScopeCategory): { read: RouteAuth; write: RouteAuth } {
  return { read: { scopes: [`${category}:read_only`] }, write: { scopes: [`${category}:read_write`] } }
}
