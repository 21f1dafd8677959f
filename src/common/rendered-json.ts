import type { FastifyReply } from 'fastify'
import type { PageResult } from './schemas.ts'

/**
 * Sends JSON text that is already in its wire form (rendered by the database, or cached), so it is
 * neither parsed nor serialized again. The route's response schema still documents it.
 */
export function sendRenderedJson(reply: FastifyReply, json: string): FastifyReply {
  return reply.type('application/json; charset=utf-8').send(json)
}

/**
 * The list envelope around items that are already JSON text, so a page is assembled without
 * parsing or re-serializing its items.
 */
export function pageJson(page: PageResult<string>): string {
  return `{"data":[${page.data.join(',')}],"page":${page.page},"pages":${page.pages},"results":${page.results}}`
}
