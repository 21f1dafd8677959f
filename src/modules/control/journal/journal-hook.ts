import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { jsonBodyText } from '../../../plugins/json-body.ts'
import { isEmulatorExempt } from '../exempt-paths.ts'
import { faultRuleOf, onDroppedConnection } from '../faults/fault-hook.ts'
import { journalPath, journalQuery, unreadBody } from './journal-redact.ts'
import type { JournalOutcome } from './journal-rows.ts'
import type { JournalWriter } from './journal-writer.ts'

/**
 * The request body as journalled: the JSON text as sent, or a note of its size when it could not be
 * read as JSON (a bad request); a value a parser made of other media only when it is plain data.
 * Never a stream (an upload's image data), which the journal cannot hold.
 */
function requestBodyOf(request: FastifyRequest): unknown {
  const text = jsonBodyText(request)
  const body = request.body
  if (text !== undefined) return body === undefined ? unreadBody(text) : text
  return body instanceof Readable ? undefined : body
}

/**
 * Records every API request in the journal. The entry, bodies by reference (the JSON text that
 * came in, the payload string that goes out), goes to the writer's buffer: nothing here parses,
 * serialises, redacts or writes; that is the writer's, off the hot path.
 *
 * An answer is recorded as it leaves (onSend; `client_closed` when the client had already gone).
 * A request that gets none, because a fault rule dropped its connection, is recorded as the rule
 * drops it, with no status. No per-request listener is added for either.
 */
export function installJournalHook(app: FastifyInstance, writer: JournalWriter, controlPrefix: string): void {
  const record = (
    request: FastifyRequest,
    reply: FastifyReply,
    status: number | null,
    responseBody: unknown,
    outcome: JournalOutcome | null,
  ) => {
    // As the client sent it (`/v4beta` is routed as `/v4`, routes.ts).
    const url = request.originalUrl
    const q = url.indexOf('?')
    const rawPath = q === -1 ? url : url.slice(0, q)
    if (isEmulatorExempt(rawPath, controlPrefix)) return
    const { path, secret } = journalPath(rawPath)
    const actor = request.actor
    const durationMs = reply.elapsedTime
    const startedAgo = Math.round(durationMs)
    writer.push({
      atMs: app.clock.now().getTime() - startedAgo,
      realMs: Date.now() - startedAgo,
      method: request.method,
      path,
      query: q === -1 ? '' : journalQuery(url.slice(q + 1)),
      status,
      durationMs,
      accountId: actor?.accountId ?? null,
      userId: actor?.user.id ?? null,
      tokenId: actor?.tokenId ?? null,
      // An upload's body is image data; its URL is the secret.
      requestBody: secret ? undefined : requestBodyOf(request),
      responseBody:
        secret || (typeof responseBody !== 'string' && !Buffer.isBuffer(responseBody))
          ? undefined
          : responseBody,
      faultRule: faultRuleOf(request),
      outcome,
    })
  }
  app.addHook('onSend', (request, reply, payload, done) => {
    record(request, reply, reply.statusCode, payload, reply.raw.destroyed ? 'client_closed' : null)
    done(null, payload)
  })
  onDroppedConnection(app, (request, reply) => record(request, reply, null, undefined, 'dropped'))
  // Fastify times a reply (reply.elapsedTime) only where something waits for its end; a server
  // with its access log does already, an app without a logger (tests) needs this to.
  if (!app.hasPlugin('request-log')) app.addHook('onResponse', (_request, _reply, done) => done())
}
