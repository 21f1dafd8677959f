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
 * Once the server is closing, `/readyz` says so first (a load balancer stops sending), a request
 * that reaches it on a connection still open is refused in the API's error envelope with
 * `Retry-After` (Fastify's own answer has neither), and every answer closes its connection: a
 * keep-alive client would otherwise hold the close open until the grace period ran out.
 */
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

  app.addHook('onSend', (_request, reply, payload, done) => {
    if (app.readiness.stopping) reply.header('connection', 'close')
    done(null, payload)
  })

  app.addHook('preClose', (done) => {
    app.readiness.stopping = true
    app.readiness.ready = false
    done()
  })
}

export const readiness = fp(readinessPlugin, { name: 'readiness' })
