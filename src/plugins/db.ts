import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import type { AdjustableClock } from '../common/time.ts'
import { changeCountersNow } from '../db/change-counters.ts'
import type { Db } from '../db/connect.ts'

declare module 'fastify' {
  interface FastifyInstance {
    db: Db
    clock: AdjustableClock
  }
  interface FastifyRequest {
    /** The change counters read for this request (see `countersOf`); null until first asked. */
    changeCounters: Promise<ReadonlyMap<string, number>> | null
  }
}

/**
 * The change counters as of one read made after the request started, shared by every cache the
 * request consults (the clock, the fault rules, the token cache, the catalogue cache): one read
 * per request, itself shared by the requests of an event-loop turn (db/change-counters.ts),
 * instead of one per cache. A counter read later in the request would be no fresher in any way
 * that matters: each cache only needs a value read after the request began.
 */
export function countersOf(request: FastifyRequest): Promise<ReadonlyMap<string, number>> {
  let counters = request.changeCounters
  if (counters === null) {
    counters = changeCountersNow(request.server.db)
    request.changeCounters = counters
  }
  return counters
}

async function dbPlugin(app: FastifyInstance, options: { db: Db; clock: AdjustableClock; ownsDb: boolean }) {
  app.decorate('db', options.db)
  app.decorate('clock', options.clock)
  app.decorateRequest('changeCounters', null)
  if (options.ownsDb) app.addHook('onClose', async () => options.db.destroy())
}

export const db = fp(dbPlugin, { name: 'db' })
