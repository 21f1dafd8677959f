import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * One access-log line per request, written when the response is done. Only the method, the path
 * (the route pattern for URLs that carry a secret; never the query string), the status and the
 * time: never headers or bodies, so no token can reach a log.
 */
async function requestLogPlugin(app: FastifyInstance) {
  app.addHook('onResponse', async (request, reply) => {
    const config = request.routeOptions.config
    // The path only: a client that puts a credential in the query string must not get it logged.
    const path = request.url.split('?', 1)[0]
    const url = config.sensitiveUrl ? (request.routeOptions.url ?? '[redacted]') : path
    request.log.info(
      {
        method: request.method,
        url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 100) / 100,
      },
      'request',
    )
  })
}

export const requestLog = fp(requestLogPlugin, { name: 'request-log' })
