import { type IncomingMessage, type ServerResponse, STATUS_CODES } from 'node:http'
import type { Socket } from 'node:net'
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify'
import fp from 'fastify-plugin'
import FindMyWay from 'find-my-way'
import { NoResultError } from 'kysely'
import { BlobStoreError } from '../blobs/blob-store.ts'
import { ApiError, type ErrorItem, TooManyRequests } from '../common/errors.ts'
import { type SchemaError, schemaErrorsToItems } from '../common/validation.ts'
import { isTooComplexForDatabase } from '../common/x-filter.ts'
import { isConnectionLost, isTransientConflict } from '../db/connection-loss.ts'
import { errorItemsToWire } from '../vocabulary/vocabulary.plugin.ts'

/**
 * One error handler for the whole API: every failure leaves as `{"errors":[…]}` with a 4xx or,
 * for the unexpected, a logged 500 that reveals nothing.
 */
const send = (reply: FastifyReply, status: number, errors: ErrorItem[]) =>
  reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send({ errors: errorItemsToWire(reply.request, errors) })

const FASTIFY_ERRORS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'Content-Type must be application/json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'Content-Length does not match the body'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'Request body is too large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'Request body must be a JSON object'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'Request body is not valid JSON'],
  FST_ERR_CTP_EMPTY_TYPE: [400, 'Content-Type must not be empty'],
  FST_ERR_CTP_INVALID_TYPE: [415, 'Content-Type must be application/json'],
}

const METHODS = ['GET', 'POST', 'PUT', 'DELETE'] as const

function handleError(
  this: FastifyInstance,
  error: FastifyError | ApiError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  if (error instanceof ApiError) {
    if (error.status === 503 && !reply.hasHeader('retry-after')) reply.header('Retry-After', '5')
    if (error instanceof TooManyRequests) reply.header('Retry-After', String(error.retryAfterSeconds))
    return send(reply, error.status, error.errors)
  }
  // A row that vanished between a service's lookup and its update (a concurrent delete).
  if (error instanceof NoResultError) return send(reply, 404, [{ reason: 'Not found' }])

  const fastifyError = error as FastifyError
  if (fastifyError.validation) {
    const context = fastifyError.validationContext ?? 'body'
    // A path parameter that does not match (`05`, `abc`) names nothing that exists.
    if (context === 'params') return send(reply, 404, [{ reason: 'Not found' }])
    const items = schemaErrorsToItems(fastifyError.validation as unknown as SchemaError[], context)
    return send(reply, 400, items)
  }
  const known = fastifyError.code ? FASTIFY_ERRORS[fastifyError.code] : undefined
  if (known) return send(reply, known[0], [{ reason: known[1] }])
  if (error instanceof SyntaxError || fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY') {
    return send(reply, 400, [{ reason: 'Request body is not valid JSON' }])
  }
  // Only a client's filter can make a list's SQL too complex for the engine to run.
  if (isTooComplexForDatabase(error)) {
    return send(reply, 400, [{ reason: 'X-Filter is too complex', field: 'X-Filter' }])
  }
  if (error instanceof BlobStoreError) {
    request.log.error({ err: error, reqId: request.id }, 'blob store failure')
    if (error.outOfSpace) return send(reply, 507, [{ reason: 'Insufficient storage' }])
    reply.header('Retry-After', '5')
    return send(reply, 503, [{ reason: 'Image storage is unavailable; retry shortly' }])
  }
  // A failover or restart cut the database connection: the pool reconnects, the client retries.
  if (isConnectionLost(error)) {
    request.log.warn({ err: error, reqId: request.id }, 'database connection lost')
    reply.header('Retry-After', '1')
    return send(reply, 503, [{ reason: 'The database is unavailable; retry shortly' }])
  }
  // Writers that still conflicted after their retries (db/transaction.ts): nothing was changed.
  if (isTransientConflict(error)) {
    request.log.warn({ err: error, reqId: request.id }, 'write conflict persisted')
    reply.header('Retry-After', '1')
    return send(reply, 503, [{ reason: 'Please try again' }])
  }
  const status = fastifyError.statusCode
  if (status !== undefined && status >= 400 && status < 500) {
    return send(reply, status, [{ reason: status === 404 ? 'Not found' : 'Bad request' }])
  }
  request.log.error({ err: error, reqId: request.id }, 'unhandled error')
  return send(reply, 500, [{ reason: `Internal server error (request ${request.id})` }])
}

/**
 * The failures every documented operation can answer besides its own (the route tables state 400,
 * 401, 403 and 404): 429 over a rate limit, and, for one that takes a body, 413 for one too large
 * and 415 for one that is not of its media type. In the OpenAPI document, as the envelope.
 */
function documentErrors(schema: FastifySchema | undefined): void {
  const response = schema?.response as Record<string, unknown> | undefined
  if (schema === undefined || response?.[400] === undefined) return
  const envelope = response[400]
  // A new object: a route's parts may be shared with its other roots and its HEAD route. Its own
  // answers keep their order and win over these.
  schema.response = {
    ...response,
    ...(schema.body !== undefined && { 413: envelope, 415: envelope }),
    429: envelope,
    ...response,
  }
}

async function errorsPlugin(app: FastifyInstance) {
  // A shadow router of every route, so a known path with the wrong method gets 405, not 404. Built
  // on the first 404: building it with the routes was a share of every start.
  const routes: Array<[string, string]> = []
  let shadow: ReturnType<typeof FindMyWay> | undefined
  const shadowRouter = () => {
    if (shadow === undefined) {
      shadow = FindMyWay({ ignoreTrailingSlash: true })
      for (const [method, url] of routes) shadow.on(method as 'GET', url, () => {})
    }
    return shadow
  }
  app.addHook('onRoute', (route) => {
    documentErrors(route.schema)
    const methods = Array.isArray(route.method) ? route.method : [route.method]
    for (const method of methods) {
      if (method === 'OPTIONS' || method === 'HEAD') continue
      routes.push([method, route.url])
    }
  })

  app.setErrorHandler(handleError)

  app.addHook('onRequest', (request, _reply, done) => {
    // HTTP/1.1 requires Host (Node's own check is off: it would answer with an empty body).
    if (request.headers.host === undefined) {
      const { httpVersionMajor, httpVersionMinor } = request.raw
      if (httpVersionMajor === 1 && httpVersionMinor >= 1) {
        return done(new ApiError('bad_request', [{ reason: 'The Host header is required' }]))
      }
    }
    // A NUL (`%00`) in the path names nothing that can exist, and PostgreSQL refuses it in text.
    const url = request.url
    if (url.includes('%')) {
      const path = url.split('?', 1)[0] ?? ''
      if (/%00/i.test(path)) return done(new ApiError('not_found', [{ reason: 'Not found' }]))
    }
    done()
  })

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/'
    const router = shadowRouter()
    const allowed = METHODS.filter((m) => m !== request.method && router.find(m, path) !== null)
    if (allowed.length > 0) {
      reply.header('Allow', [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', '))
      return send(reply, 405, [{ reason: 'Method not allowed' }])
    }
    return send(reply, 404, [{ reason: 'Not found' }])
  })
}

export const errors = fp(errorsPlugin, { name: 'errors' })

/** Fastify's own refusals before routing (a malformed URL): the same envelope as everything else. */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  request.log.debug({ code: error.code }, 'refused before routing')
  void send(reply, 400, [{ reason: 'Malformed request URL' }])
}

/**
 * Refusals by Node's HTTP parser (oversized headers, malformed requests) never reach Fastify;
 * they are answered on the socket, still in the envelope.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  const [status, reason] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Malformed HTTP request']
  refuseOnSocket(socket, status, reason)
}

/** A CONNECT (no route takes one; Node hands it to no handler and would drop the connection). */
export function connectRefused(_request: IncomingMessage, socket: Socket): void {
  refuseOnSocket(socket, 405, 'Method not allowed')
}

/** Sockets already refused: the parser reports each later byte too, and one answer is enough. */
const refused = new WeakSet<Socket>()

function refuseOnSocket(socket: Socket, status: number, reason: string): void {
  if (!socket.writable || refused.has(socket)) return
  refused.add(socket)
  answerAfterPipelined(socket, () => writeRefusal(socket, status, reason))
}

/**
 * Runs `then` once the answers to the requests before this one on the connection (pipelined, each
 * perhaps a write already done) are sent: ending the socket at once would lose them, and a client
 * would retry writes that happened. Node attaches each answer to the socket in turn
 * (`_httpMessage`, which its own error handler reads too).
 */
function answerAfterPipelined(socket: Socket, then: () => void): void {
  const current = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage
  if (current == null || socket.destroyed) {
    then()
    return
  }
  // One step per answer, on whichever of its events comes first.
  let moved = false
  const next = () => {
    if (moved) return
    moved = true
    current.removeListener('finish', next)
    current.removeListener('close', next)
    setImmediate(() => answerAfterPipelined(socket, then))
  }
  current.once('finish', next)
  current.once('close', next)
}

function writeRefusal(socket: Socket, status: number, reason: string): void {
  if (!socket.writable) return
  const body = JSON.stringify({ errors: [{ reason }] })
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  )
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request headers are too large'],
  // The headers did not all arrive within the server's headers timeout.
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request timeout: the request did not arrive in time'],
}

/** Node's answer to an `Expect` it cannot meet (anything but 100-continue), in the envelope. */
export function expectationFailed(_request: IncomingMessage, response: ServerResponse): void {
  const body = JSON.stringify({ errors: [{ reason: 'Only "Expect: 100-continue" is supported' }] })
  response.writeHead(417, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  })
  response.end(body)
}
