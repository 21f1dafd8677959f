import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError, badRequest } from '../common/errors.ts'

/** A NUL escape not itself escaped: PostgreSQL text cannot hold it, so it is refused up front. */
const NUL_ESCAPE = /(^|[^\\])(\\\\)*\\u0000/

/**
 * JSON is the only request body the API takes (routes that stream other media register their own
 * parser). An empty body is "no body", which routes without one accept and routes with one refuse
 * through their schema.
 */
async function jsonBodyPlugin(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    if (text.trim() === '') return done(null, undefined)
    if (NUL_ESCAPE.test(text)) return done(badRequest('Strings must not contain NUL characters'), undefined)
    parseJson(request, text, done)
  })
  // Clients send bodiless POSTs (`/tfa-disable`, `/events/{id}/seen`) with whatever Content-Type
  // their HTTP library defaults to (axios: form-urlencoded). No body, nothing to refuse.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined)
    done(
      new ApiError('unsupported_media_type', [{ reason: 'Content-Type must be application/json' }]),
      undefined,
    )
  })
}

export const jsonBody = fp(jsonBodyPlugin, { name: 'json-body' })
