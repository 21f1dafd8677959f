import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { AdjustableClock } from '../common/time.ts'
import type { Db } from '../db/connect.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    clock: AdjustableClock
  }
}

async function dbPlugin(app: FastifyInstance, options: { db: Db; clock: AdjustableClock; ownsDb: boolean }) {
  app.decorate('db', options.db)
  app.decorate('clock', options.clock)
  if (options.ownsDb) app.addHook('onClose', async () => options.db.destroy())
}

export const db = fp(dbPlugin, { name: 'db' })
