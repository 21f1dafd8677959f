import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError } from '../common/errors.ts'

declare module 'fastify' {
  interface FastifyInstance {
    readiness: { ready: boolean }
  }
}

/**
 * `/healthz` answers as soon as the process listens; `/readyz` and the API answer 503 until the
 * database is migrated and the catalogue loaded (another process may be holding the migration lock).
 */
async function readinessPlugin(app: FastifyInstance, options: { ready: boolean }) {
  app.decorate('readiness', { ready: options.ready })

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }))
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    if (!app.readiness.ready) return reply.code(503).send({ status: 'starting' })
    return { status: 'ready' }
  })

  app.addHook('onRequest', (request, _reply, done) => {
    if (app.readiness.ready || request.url === '/healthz' || request.url === '/readyz') return done()
    done(new ApiError('unavailable', [{ reason: 'The server is starting; try again shortly' }]))
  })
}

export const readiness = fp(readinessPlugin, { name: 'readiness' })
