import type { FastifyInstance } from 'fastify'
import { faultRuleOf } from '../faults/fault-hook.ts'
import { journalPath, journalQuery } from './journal-redact.ts'
import type { JournalWriter } from './journal-writer.ts'

const isJournalled = (path: string, controlPrefix: string): boolean =>
  !(
    path === controlPrefix ||
    path.startsWith(`${controlPrefix}/`) ||
    path === '/healthz' ||
    path === '/readyz'
  )

/**
 * Records every API request in the journal, from one hook as the answer leaves (its status is
 * set, its body in hand): the entry, bodies by reference, goes to the writer's buffer. Nothing here
 * parses, redacts or writes: that is the writer's, off the hot path. A dropped connection (a fault)
 * sends nothing and is not recorded.
 */
export function installJournalHook(app: FastifyInstance, writer: JournalWriter, controlPrefix: string): void {
  app.addHook('onSend', (request, reply, payload, done) => {
    const url = request.url
    const q = url.indexOf('?')
    const rawPath = q === -1 ? url : url.slice(0, q)
    if (isJournalled(rawPath, controlPrefix)) {
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
        status: reply.statusCode,
        durationMs,
        accountId: actor?.accountId ?? null,
        userId: actor?.user.id ?? null,
        tokenId: actor?.tokenId ?? null,
        // An upload's body is image data; its URL is the secret.
        requestBody: secret ? undefined : request.body,
        responseBody:
          secret || (typeof payload !== 'string' && !Buffer.isBuffer(payload)) ? undefined : payload,
        faultRule: faultRuleOf(request),
      })
    }
    done(null, payload)
  })
  // Fastify times a reply (reply.elapsedTime) only where something waits for its end; a server
  // with its access log does already, an app without a logger (tests) needs this to.
  if (!app.hasPlugin('request-log')) app.addHook('onResponse', (_request, _reply, done) => done())
}
