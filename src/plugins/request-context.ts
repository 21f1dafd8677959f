import type { FastifyRequest } from 'fastify'
import type { PublicContext, RequestContext } from '../common/context.ts'
import { requireActor } from './auth.ts'

/** The context of an authenticated route: the auth hook has already resolved the actor. */
export function contextOf(request: FastifyRequest): RequestContext {
  return { db: request.server.db, clock: request.server.clock, actor: requireActor(request) }
}

/** The context of a public route: the caller, when a token was sent, else none. */
export function publicContextOf(request: FastifyRequest): PublicContext {
  return { db: request.server.db, clock: request.server.clock, actor: request.actor }
}
