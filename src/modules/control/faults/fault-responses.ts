import { STATUS_CODES } from 'node:http'
import type { FastifyReply } from 'fastify'
import type { Clock } from '../../../common/time.ts'
import { tightestLimit } from '../../../plugins/rate-limits.ts'
import type { FaultEffect } from './fault-rules.ts'

/** The reasons the real service gives with these statuses. */
const DEFAULT_REASONS: Record<number, string> = {
  500: 'Please try again',
  502: 'Bad Gateway',
  503: 'Currently in maintenance mode.',
  429: 'Too many requests',
  400: 'Bad Request',
}

/**
 * Answers a request with a status fault: the real service's error body, and the headers clients
 * look at (503 `X-Maintenance-Mode`, 429 `Retry-After` and `X-RateLimit-*`).
 */
export function sendStatusFault(
  reply: FastifyReply,
  effect: Extract<FaultEffect, { kind: 'status' }>,
  clock: Clock,
): FastifyReply {
  const reason = effect.reason ?? DEFAULT_REASONS[effect.status] ?? STATUS_CODES[effect.status] ?? 'Error'
  if (effect.status === 503) {
    reply.header('X-Maintenance-Mode', 'true')
    reply.header('Retry-After', String(effect.retryAfter ?? 60))
  }
  if (effect.status === 429) {
    const retryAfter = effect.retryAfter ?? 10
    reply.header('Retry-After', String(retryAfter))
    reply.header('X-RateLimit-Limit', String(tightestLimit(reply.request.routeOptions)))
    reply.header('X-RateLimit-Remaining', '0')
    reply.header('X-RateLimit-Reset', String(Math.ceil(clock.now().getTime() / 1000) + retryAfter))
  }
  const item = effect.field === undefined ? { reason } : { reason, field: effect.field }
  return reply
    .code(effect.status)
    .type('application/json; charset=utf-8')
    .send({ errors: [item] })
}
