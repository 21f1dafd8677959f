import rateLimit from '@fastify/rate-limit'
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onRequestHookHandler,
  RouteOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import { TooManyRequests } from '../common/errors.ts'

import type { RateLimitMode } from './rate-limit-modes.ts'

export interface RateLimitOptions {
  mode: RateLimitMode
  /** Counts shared by every process of a deployment; without one, each process counts its own. */
  redisUrl?: string | undefined
}

/** What the limits look at in a route: as registered (RouteOptions), or as matched by a request. */
type LimitedRoute = Pick<RouteOptions, 'method' | 'schema'>

/** One of the real service's limits: `max` requests per `windowMs`, counted per key. */
interface LimitRule {
  name: string
  max: number
  windowMs: number
  /** Whether the rule counts this route's calls. */
  applies(route: LimitedRoute): boolean
  /** Counted per caller, or per caller and operation. */
  perOperation: boolean
}

const operationIdOf = (route: LimitedRoute): string | undefined =>
  (route.schema as { operationId?: string } | undefined)?.operationId

const isPaginatedList = (route: LimitedRoute): boolean => {
  const ok = (route.schema?.response as Record<string, { properties?: object }> | undefined)?.[200]
  return (
    (route.method === 'GET' || route.method === 'HEAD') &&
    ok?.properties !== undefined &&
    'pages' in ok.properties
  )
}

/** The documented limits (the API document's "Rate Limiting"; docs/decisions.md#rate-limits). */
const RULES: LimitRule[] = [
  { name: 'general', max: 800, windowMs: 120_000, applies: () => true, perOperation: false },
  { name: 'operation', max: 400, windowMs: 60_000, applies: () => true, perOperation: true },
  { name: 'collection', max: 200, windowMs: 60_000, applies: isPaginatedList, perOperation: true },
  {
    name: 'images-list',
    max: 20,
    windowMs: 60_000,
    applies: (route) => operationIdOf(route) === 'getImages',
    perOperation: true,
  },
  {
    name: 'instance-create',
    max: 10,
    windowMs: 30_000,
    applies: (route) => operationIdOf(route) === 'createComputeInstance',
    perOperation: true,
  },
]

/**
 * The tightest of the limits on a route's calls, which the `X-Ratelimit-Limit` of its 429 reports:
 * a fault rule's 429 announces the same as a counted one would.
 */
export const tightestLimit = (route: LimitedRoute): number =>
  Math.min(...RULES.filter((rule) => rule.applies(route)).map((rule) => rule.max))

/** The login pages and OAuth endpoints, and phone codes: limited whatever the mode. */
const ALWAYS_LIMITED = /^\/(login|logout|oauth)(\/|$)|\/profile\/phone-number(\/verify)?$/

const isApiRoute = (route: RouteOptions) =>
  (route.config as { auth?: unknown } | undefined)?.auth !== undefined

/** Who is counted: the token's user (accounts are unique across deployments), else the address. */
function callerKey(request: FastifyRequest): string {
  const actor = request.actor
  return actor ? `user:${actor.accountUuid}:${actor.user.id}` : `ip:${request.ip}`
}

/**
 * What a call counts against: its operation, which a HEAD shares with its GET (Fastify gives the
 * HEAD route the GET's schema) and an alias path (`…Alias`) with the operation it serves again.
 */
function operationKey(route: RouteOptions): string {
  const id = operationIdOf(route)
  return id?.replace(/Alias$/, '') ?? `${route.method === 'HEAD' ? 'GET' : String(route.method)} ${route.url}`
}

type Limiter = ReturnType<FastifyInstance['createRateLimit']>
type Outcome = Exclude<Awaited<ReturnType<Limiter>>, { isAllowed: true }>

function setHeaders(reply: FastifyReply, outcome: Outcome) {
  reply.header('X-Ratelimit-Limit', String(outcome.max))
  reply.header('X-Ratelimit-Remaining', String(outcome.isExceeded ? 0 : outcome.remaining))
  // The real service's reset is a Unix time in seconds.
  reply.header('X-Ratelimit-Reset', String(Math.ceil(Date.now() / 1000) + outcome.ttlInSeconds))
}

/**
 * The real service's rate limits, answered with its 429 and `X-Ratelimit-*` headers; the tightest
 * applicable limit is the one reported. Counted in Redis when a URL is given (every process of a
 * deployment shares the counts), else in this process. A Redis failure lets requests through.
 */
async function rateLimitsPlugin(app: FastifyInstance, options: RateLimitOptions) {
  // Loaded only when counts are shared: most servers never need the client, and start-up pays for it.
  const redis =
    options.redisUrl === undefined
      ? undefined
      : new (await import('ioredis')).Redis(options.redisUrl, {
          maxRetriesPerRequest: 1,
          commandTimeout: 1000,
          connectTimeout: 2000,
        })
  /** Redis was reached once and is out of reach now (before the first connection, calls wait for it). */
  let reached = false
  const lost = () => reached && redis?.status !== 'ready'
  if (redis) {
    redis.once('ready', () => {
      reached = true
    })
    let warned = false
    redis.on('error', (error: Error) => {
      if (!warned) app.log.warn({ err: error }, 'rate limit store unreachable; requests are not counted')
      warned = true
    })
    redis.on('ready', () => {
      warned = false
    })
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect())
    })
  }
  await app.register(rateLimit, {
    global: false,
    skipOnError: true,
    nameSpace: 'cloudplane-rate-limit:',
    ...(redis && { redis }),
  })
  const limiters = new Map(
    RULES.map((rule) => [
      rule,
      app.createRateLimit({
        max: rule.max,
        timeWindow: rule.windowMs,
        // Keys are built by the hook below; the local store keeps this many callers' counts.
        keyGenerator: (request) => (request as FastifyRequest & { rateLimitKey: string }).rateLimitKey,
        ...({ cache: 100_000 } as object),
      }),
    ]),
  )

  app.addHook('onRoute', (route) => {
    const always = ALWAYS_LIMITED.test(route.url)
    if (!always && (options.mode === 'off' || !isApiRoute(route))) return
    // A HEAD is a GET without its body, and is counted as one.
    if (route.method === 'OPTIONS') return
    const rules = RULES.filter((rule) => rule.applies(route))
    const operation = operationKey(route)
    const hook = async (request: FastifyRequest, reply: FastifyReply) => {
      // Shared counts out of reach: let through at once, not after a command's timeout, and with
      // no headers, which would announce a budget nobody counts.
      if (lost()) return
      const caller = callerKey(request)
      const outcomes = await Promise.all(
        rules.map((rule) => {
          const key = rule.perOperation ? `${rule.name}:${caller}:${operation}` : `${rule.name}:${caller}`
          const limiter = limiters.get(rule) as Limiter
          return limiter(Object.assign(Object.create(request), { rateLimitKey: key }))
        }),
      )
      const counted = outcomes.filter((o): o is Outcome => !o.isAllowed && o.max > 0)
      if (counted.length === 0) return
      const exceeded = counted.filter((o) => o.isExceeded)
      if (exceeded.length > 0) {
        const longest = exceeded.reduce((a, b) => (b.ttlInSeconds > a.ttlInSeconds ? b : a))
        setHeaders(reply, longest)
        throw new TooManyRequests('Too many requests', longest.ttlInSeconds)
      }
      setHeaders(
        reply,
        counted.reduce((a, b) => (b.remaining < a.remaining ? b : a)),
      )
    }
    const existing = route.onRequest
    const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]
    route.onRequest = [...hooks, hook as unknown as onRequestHookHandler]
  })
}

export const rateLimits = fp(rateLimitsPlugin, { name: 'rate-limits' })
