import type {
  DoneFuncWithErrOrRes,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  onSendHookHandler,
} from 'fastify'
import fp from 'fastify-plugin'
import { notifiedChangeCounter } from '../db/change-counters.ts'
import { countersOf } from './db.ts'

/**
 * The static catalogues (regions, their availability, compute types, public images) served from
 * the text of an earlier answer: each is rendered once per catalogue change and sent as is. The
 * `catalogue` change counter, which triggers move on any change to those tables by any process
 * (`cloudplane region status` from another shell, a control reset), stamps every entry; an entry
 * is used only while the counter, read after the request started, still has its stamp. On
 * PostgreSQL the value announced by the counter's trigger stands in for that read
 * (db/change-counters.ts): another process's change shows a moment late, this process's own at once.
 *
 * Only answers that are the same for every caller are kept: the image list without a token (with
 * one it holds the account's private images), and nothing under a vocabulary that rewrites
 * answers on the way out (the stored text would be rewritten twice).
 */
const CATALOGUE_OPERATIONS = new Set([
  'getRegions',
  'getRegionsAvailability',
  'getRegion',
  'getRegionAvailability',
  'getComputeTypes',
  'getComputeType',
  'getImages',
])
/** Answers that depend on the caller's token. */
const PUBLIC_PART_ONLY = new Set(['getImages'])
const COUNTER = 'catalogue'
/** Distinct URLs (query strings, filters) kept at most; past it the cache starts over. */
const MAX_ENTRIES = 1000

interface Entry {
  stamp: number
  type: string
  /** The answer's bytes: sent as they are, neither measured nor encoded again. */
  body: Buffer
}

const stamps = new WeakMap<FastifyRequest, { key: string; stamp: number }>()

function keyOf(request: FastifyRequest): string {
  const filter = request.headers['x-filter']
  return filter === undefined ? request.url : `${request.url}\n${String(filter)}`
}

/** A route's hooks of one kind with one more after them. */
function append<T>(existing: T | T[] | undefined, hook: T): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook]
}

async function catalogueCachePlugin(app: FastifyInstance): Promise<void> {
  const entries = new Map<string, Entry>()

  // The route's own onRequest hook, after every instance-wide one (auth, limits, faults): an answer
  // from here differs from the handler's in nothing but the work it spares. It comes before
  // validation, which it can skip: an entry is kept only for a 200, and whatever validation looks
  // at (the path, the query, X-Filter) is in the key, so the same key would pass it again. One per
  // route, so the route's part is known without `request.routeOptions` (an object built per read).
  const lookupFor = (publicPartOnly: boolean) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (publicPartOnly && request.actor !== null) return
    const stamp = notifiedChangeCounter(app.db, COUNTER) ?? (await countersOf(request)).get(COUNTER)
    if (stamp === undefined) return
    const key = keyOf(request)
    const entry = entries.get(key)
    if (entry !== undefined && entry.stamp === stamp) {
      return reply.header('content-type', entry.type).send(entry.body)
    }
    stamps.set(request, { key, stamp })
  }

  const keep = (
    request: FastifyRequest,
    reply: FastifyReply,
    payload: unknown,
    done: DoneFuncWithErrOrRes,
  ) => {
    // An answer from the cache left no stamp: it goes on untouched.
    const pending = stamps.get(request)
    if (pending === undefined) return done(null, payload)
    const type = reply.getHeader('content-type')
    if (reply.statusCode !== 200 || typeof payload !== 'string' || typeof type !== 'string') {
      return done(null, payload)
    }
    if (entries.size >= MAX_ENTRIES) entries.clear()
    // Stamped with the counter read before rendering: a change made meanwhile makes it stale at once.
    const body = Buffer.from(payload)
    entries.set(pending.key, { stamp: pending.stamp, type, body })
    done(null, body)
  }

  // Only the catalogue routes carry the hooks: every other route pays nothing for the cache.
  app.addHook('onRoute', (route) => {
    const operationId = (route.schema as { operationId?: string } | undefined)?.operationId
    if (route.method !== 'GET' || operationId === undefined || !CATALOGUE_OPERATIONS.has(operationId)) return
    if (route.config?.wire !== undefined) return
    const lookup = lookupFor(PUBLIC_PART_ONLY.has(operationId))
    route.onRequest = append(route.onRequest, lookup as onRequestAsyncHookHandler)
    route.onSend = append(route.onSend, keep as onSendHookHandler)
  })
}

export const catalogueCache = fp(catalogueCachePlugin, {
  name: 'catalogue-cache',
  dependencies: ['db', 'auth'],
})
