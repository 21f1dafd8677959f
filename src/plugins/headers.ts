import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

export const SPEC_VERSION = '4.174.0'

/**
 * The real API's static response headers (docs/service-facts.md#response-headers): spec version,
 * CORS for browser clients, and its security headers. Set on every response, errors included.
 */
const STATIC_HEADERS: Record<string, string> = {
  'X-Spec-Version': SPEC_VERSION,
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'HEAD, GET, OPTIONS, POST, PUT, DELETE',
  'Access-Control-Allow-Headers': 'Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter',
  'Access-Control-Expose-Headers': 'X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status',
  'Cache-Control': 'max-age=0, no-cache, no-store',
  Vary: 'Authorization, X-Filter',
  'Strict-Transport-Security': 'max-age=31536000',
  'X-Frame-Options': 'DENY',
  'X-Content-Type-Options': 'nosniff',
  'X-Xss-Protection': '1; mode=block',
  'Content-Security-Policy': "default-src 'none'",
}

/** The docs page loads its own scripts and styles; it gets a policy that allows them. */
const DOCS_CSP =
  "default-src 'self'; img-src 'self' data: https:; style-src 'self' 'unsafe-inline'; script-src 'self'"

/**
 * The same headers as pairs with lower-case names, as Fastify stores and sends them: set one by
 * one, with no list of keys made per request and no name to lower-case.
 */
const STATIC_PAIRS = Object.entries(STATIC_HEADERS).map(
  ([name, value]) => [name.toLowerCase(), value] as const,
)

async function headersPlugin(app: FastifyInstance) {
  // A callback hook, not an async one: no promise per request.
  app.addHook('onRequest', (request, reply, done) => {
    for (const [name, value] of STATIC_PAIRS) reply.header(name, value)
    reply.header('x-request-id', request.id)
    if (request.url.startsWith('/docs')) reply.header('Content-Security-Policy', DOCS_CSP)
    done()
  })

  // CORS preflight for any path: browsers send it before a request with Authorization or X-Filter.
  app.options('*', { schema: { hide: true } }, async (_request, reply) => {
    reply.header('Access-Control-Max-Age', '86400')
    return reply.code(204).send()
  })
}

export const headers = fp(headersPlugin, { name: 'headers' })
