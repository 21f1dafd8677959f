import type { Server } from 'node:http'
import type { FastifyHttpOptions } from 'fastify'
import { connectRefused, expectationFailed } from './plugins/errors.ts'

/**
 * What one HTTP connection may hold of the server, and for how long: without bounds, idle or
 * half-sent connections (a slow-loris client, a stalled upload) are held for ever.
 */
export interface HttpLimits {
  /** All of a request's headers must arrive within this; a stalled header gets 408. */
  headersTimeoutMs: number
  /**
   * A connection on which nothing moves this long is closed: a stalled request body (an upload
   * that stopped sending) as much as a silent client.
   */
  idleTimeoutMs: number
  /** An idle keep-alive connection between two requests is closed after this. */
  keepAliveTimeoutMs: number
  /** Connections open at once; more are refused at accept. */
  maxConnections: number
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  headersTimeoutMs: 20_000,
  idleTimeoutMs: 120_000,
  // Fastify's own default: longer than the idle timeout of the usual load balancers in front.
  keepAliveTimeoutMs: 72_000,
  maxConnections: 1024,
}

/** The Fastify options that carry the limits to Node's HTTP server. */
export function httpServerOptions(limits: Partial<HttpLimits> = {}): Partial<FastifyHttpOptions<Server>> {
  const { headersTimeoutMs, idleTimeoutMs, keepAliveTimeoutMs } = { ...DEFAULT_HTTP_LIMITS, ...limits }
  return {
    connectionTimeout: idleTimeoutMs,
    keepAliveTimeout: keepAliveTimeoutMs,
    // No bound on a whole request: an upload of gigabytes takes long, and the idle timeout already
    // cuts one that stalls.
    requestTimeout: 0,
    http: {
      headersTimeout: headersTimeoutMs,
      // How often Node looks for requests over headersTimeout: a fraction of it.
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(headersTimeoutMs / 4))),
      // Node would answer a request without Host with an empty 400; the errors plugin answers it
      // in the envelope instead.
      requireHostHeader: false,
    },
  }
}

/** Limits that live on the server object itself (set once, before it listens). */
export function applyServerLimits(server: Server, limits: Partial<HttpLimits> = {}): void {
  server.maxConnections = limits.maxConnections ?? DEFAULT_HTTP_LIMITS.maxConnections
  // An `Expect` other than 100-continue: Node's own 417 has an empty body.
  server.on('checkExpectation', expectationFailed)
  server.on('connect', connectRefused)
}
