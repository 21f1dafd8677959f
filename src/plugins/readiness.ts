import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../common/errors.ts'

declare module 'fastify' {
  interface FastifyInstance {
    readiness: { ready: boolean; stopping: boolean }
  }
}

/**
 * `/healthz` answers as soon as the process listens; `/readyz` and the API answer 503 until the
 * database is migrated and the catalogue loaded (another process may be holding the migration lock).
 *
 * Once the server is closing, `/readyz` says so first (a load balancer stops sending), and a
 * request that reaches it on a connection still open is refused in the API's error envelope with
 * `Retry-After` (Fastify's own answer has neither). Node closes the connections that are idle when
 * the close begins, and no other: a keep-alive connection whose request was still running would
 * hold the close until the grace period ran out. So while closing, connections are closed as soon
 * as they fall idle (looked for every few milliseconds, at no cost to a running server).
 */
/** While closing, how often connections that fell idle are looked for. */
const IDLE_CHECK_MS = 20

async function readinessPlugin(app: FastifyInstance, options: { ready: boolean }) {
  app.decorate('readiness', { ready: options.ready, stopping: false })

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (app.readiness.stopping) return reply.code(503).send({ status: 'stopping' })
    if (!app.readiness.ready) return reply.code(503).send({ status: 'starting' })
    return { status: 'ready' }
  })

  app.addHook('onRequest', (request, reply, done) => {
    if (request.url === '/healthz' || request.url === '/readyz') return done()
    if (app.readiness.stopping) {
      reply.header('retry-after', '1')
      return done(new ApiError('unavailable', [{ reason: 'The server is shutting down; retry shortly' }]))
    }
    if (app.readiness.ready) return done()
    done(new ApiError('unavailable', [{ reason: 'The server is starting; try again shortly' }]))
  })

  let closingIdle: NodeJS.Timeout | undefined
  app.addHook('preClose', (done) => {
    app.readiness.stopping = true
    app.readiness.ready = false
    closingIdle = setInterval(() => app.server.closeIdleConnections(), IDLE_CHECK_MS)
    closingIdle.unref()
    done()
  })
  app.addHook('onClose', (_app, done) => {
    clearInterval(closingIdle)
    done()
  })
}

export const readiness = fp(readinessPlugin, { name: 'readiness' })
