import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { MAY_HOLD_SECRET, redactedPath, SECRET_BEARING_SEGMENTS } from '../common/secret-paths.ts'

/**
 * One access-log line per request, written when the response is done. Only the method, the path
 * (redacted for URLs that carry a secret; never the query string), the status and the time:
 * never headers or bodies, so no token can reach a log.
 */
async function requestLogPlugin(app: FastifyInstance) {
  // Lets a path that names no secret-bearing segment skip the route's options (an object Fastify
  // builds on every read of `request.routeOptions`): no route that knows its URL holds a secret
  // can then have answered it.
  app.addHook('onRoute', (route) => {
    if (route.config?.sensitiveUrl && !MAY_HOLD_SECRET.test(route.url)) {
      throw new Error(`route ${route.url} holds a secret outside ${SECRET_BEARING_SEGMENTS.join(', ')}`)
    }
  })

  // A callback hook, not an async one: no promise per request.
  app.addHook('onResponse', (request, reply, done) => {
    // The path only: a client that puts a credential in the query string must not get it logged.
    const path = request.originalUrl.split('?', 1)[0] ?? ''
    // A route that knows its URL holds a secret logs its pattern (`/image-uploads/:token`).
    const url = !MAY_HOLD_SECRET.test(path)
      ? path
      : request.routeOptions.config.sensitiveUrl
        ? (request.routeOptions.url ?? '[redacted]')
        : (redactedPath(path) ?? path)
    // request.log is the server's logger itself (no child per request, see app.ts): the id goes here.
    request.log.info(
      {
        reqId: request.id,
        method: request.method,
        url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    )
    done()
  })
}

export const requestLog = fp(requestLogPlugin, { name: 'request-log' })
