import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { invalidToken, scopeDenied } from '../common/errors.ts'
import { nowTimestamp } from '../common/time.ts'
import { sqliteEngineOf } from '../db/connect.ts'
import type { Actor } from '../modules/auth/actor.ts'
import { authenticate, cachedActor } from '../modules/auth/authenticate.ts'
import { hasScopes, type Scope } from '../modules/auth/scopes.ts'
import { TokenCache } from '../modules/auth/token-cache.ts'
import { countersOf } from './db.ts'

/**
 * What a route needs from the caller, declared in its `config.auth`:
 * - `{ scopes: [...] }`: a token holding every listed scope (`{}`: any valid token);
 * - `{ public: true }`: no token needed; a token that is sent must still be valid, and `scopes`
 *   (if given) only documents what a token needs to see more (images).
 * Every API route must declare one; a route without it fails at start-up.
 */
export interface RouteAuth {
  public?: boolean
  scopes?: Scope[]
  /**
   * The handler's statement reads the credentials counter itself and confirms the actor with it
   * (`confirmedRead`, modules/auth/confirmed-read.ts): where the counter read is a round trip
   * (PostgreSQL), a cached token then serves without it, the actor marked `unconfirmed`.
   */
  confirmedInStatement?: boolean
}

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: RouteAuth
    /** The raw URL holds a secret (upload URLs): logs show the route pattern instead. */
    sensitiveUrl?: boolean
  }
  interface FastifyRequest {
    actor: Actor | null
  }
}

const acceptedScopes = (auth: RouteAuth): string =>
  auth.scopes && auth.scopes.length > 0 ? auth.scopes.join(',') : '*'

/** The actor of an authenticated route (the auth hook guarantees it is there). */
export function requireActor(request: FastifyRequest): Actor {
  if (request.actor === null) throw invalidToken()
  return request.actor
}

async function authPlugin(app: FastifyInstance, options: { apiPrefixes: string[] }): Promise<void> {
  app.decorateRequest('actor', null)
  const tokens = new TokenCache(app.db)

  app.addHook('onRoute', (route) => {
    const isApi = options.apiPrefixes.some((p) => route.url === p || route.url.startsWith(`${p}/`))
    if (isApi && route.method !== 'OPTIONS' && route.config?.auth === undefined) {
      throw new Error(`route ${String(route.method)} ${route.url} does not declare config.auth`)
    }
  })

  // The header each route's declaration gives, worked out once per route rather than per request.
  const accepted = new WeakMap<RouteAuth, string>()
  const acceptedHeader = (auth: RouteAuth): string => {
    let header = accepted.get(auth)
    if (header === undefined) {
      header = app.vocabulary.toWire('scopes', acceptedScopes(auth))
      accepted.set(auth, header)
    }
    return header
  }

  // Where the counters are read without a round trip (SQLite), every request reads them first.
  const countersCostARoundTrip = sqliteEngineOf(app.db) === undefined

  /** The actor's headers, and the refusal of a token without the route's scopes. */
  const admit = (request: FastifyRequest, reply: FastifyReply, auth: RouteAuth, actor: Actor) => {
    request.actor = actor
    reply.header('X-OAuth-Scopes', app.vocabulary.toWire('scopes', actor.scopeText))
    reply.header('X-Customer-UUID', actor.accountUuid)
    if (!auth.public && auth.scopes && !hasScopes(actor.scopes, auth.scopes)) throw scopeDenied()
  }

  const authenticateNow = async (request: FastifyRequest, reply: FastifyReply, authorization: string) => {
    try {
      return await authenticate(app.db, authorization, nowTimestamp(app.clock), tokens, countersOf(request))
    } catch (error) {
      reply.removeHeader('X-Customer-UUID')
      reply.header('X-OAuth-Scopes', 'unknown')
      throw error
    }
  }

  /**
   * The cached lookup's actor, left for the handler's statement to confirm; null where there is
   * none, or it would not pass (the request then authenticates at once, which gives the refusal).
   */
  const unconfirmedActor = (
    request: FastifyRequest,
    reply: FastifyReply,
    auth: RouteAuth,
    authorization: string,
  ): Actor | null => {
    const cached = cachedActor(authorization, nowTimestamp(app.clock), tokens)
    if (cached === undefined) return null
    if (!auth.public && auth.scopes && !hasScopes(cached.actor.scopes, auth.scopes)) return null
    const confirm = async (): Promise<Actor> => {
      const actor = (await authenticateNow(request, reply, authorization)) as Actor
      admit(request, reply, auth, actor)
      return actor
    }
    return { ...cached.actor, unconfirmed: { stamp: cached.stamp, confirm } }
  }

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    const auth = request.routeOptions.config.auth
    if (auth === undefined) return
    reply.header('X-Accepted-OAuth-Scopes', acceptedHeader(auth))
    const authorization = request.headers.authorization
    let actor: Actor | null = null
    if (authorization !== undefined) {
      if (auth.confirmedInStatement && countersCostARoundTrip) {
        actor = unconfirmedActor(request, reply, auth, authorization)
      }
      actor ??= await authenticateNow(request, reply, authorization)
    }
    if (actor === null) {
      if (auth.public) return
      throw invalidToken()
    }
    admit(request, reply, auth, actor)
  })
}

export const auth = fp(authPlugin, { name: 'auth', dependencies: ['db'] })
