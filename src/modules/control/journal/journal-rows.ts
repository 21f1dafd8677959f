import { hash } from 'node:crypto'
import type { ControlJournalTable } from './journal.table.ts'
import { journalBody } from './journal-redact.ts'

/**
 * An entry's fields in the order its JSON array in a batch's `rows` gives them (`id` and `process`
 * are the batch's). The view `control_journal` reads them by position: fixed by the migration
 * that made it (2026_11_26_1506_journal_batches).
 */
export const JOURNAL_FIELDS = [
  'at_ms',
  'real_ms',
  'method',
  'path',
  'query',
  'status',
  'duration_ms',
  'account_id',
  'user_id',
  'token_id',
  'request_digest',
  'response_digest',
  'fault_rule',
  'outcome',
] as const satisfies ReadonlyArray<Exclude<keyof ControlJournalTable, 'id' | 'process'>>

/** Why an entry is not an ordinary answer: a fault rule closed the connection, or the client did. */
export type JournalOutcome = 'dropped' | 'client_closed'

/**
 * A request as the hot path hands it over: bodies as the text (or bytes) that came in and went
 * out, never parsed or serialised again there; redacted later, off that path.
 */
export interface PendingEntry {
  atMs: number
  realMs: number
  method: string
  path: string
  query: string
  /** Null when nothing was answered. */
  status: number | null
  durationMs: number
  accountId: number | null
  userId: number | null
  tokenId: number | null
  /** The JSON text; a value only where another parser made it (a login form). */
  requestBody: unknown
  responseBody: string | Uint8Array | undefined
  faultRule: number | null
  outcome: JournalOutcome | null
}

/** A row to store as its values, in JOURNAL_FIELDS order. */
export type JournalValues = Array<string | number | null>

/** The key a stored body goes by: a digest of its (redacted) text. */
const bodyDigest = (text: string): string => hash('sha256', text, 'base64url')

/**
 * The bodies of one batch, each redacted, digested and kept once: a body met again in the batch
 * (the same object, as a cached answer is, or the same text) costs a map look-up. Objects are
 * remembered by identity (a batch crosses threads as one message, which keeps identity), text by
 * its value.
 */
export class BatchBodies {
  readonly #keys = new Map<unknown, string | null>()
  /** Digest to redacted text, in the order first met. */
  readonly texts = new Map<string, string>()

  /** The key of a body (null: none), storing it on first sight. */
  keyOf(body: unknown): string | null {
    if (body === undefined || body === null || body === '') return null
    let key = this.#keys.get(body)
    if (key === undefined) {
      const text = journalBody(body)
      key = text === null ? null : bodyDigest(text)
      if (key !== null && text !== null) this.texts.set(key, text)
      this.#keys.set(body, key)
    }
    return key
  }
}

/** One batch as it is stored: a row of control_journal_batches, but for its first id. */
export interface JournalBatchRow {
  process: string
  entries: number
  lastAtMs: number
  lastRealMs: number
  /** The entries, as one JSON text: an array per entry, its values in JOURNAL_FIELDS order. */
  rows: string
  /** The bodies the entries name, as a JSON array of their digests. */
  digests: string
}

/**
 * A batch's entries as the row that stores them, and their bodies: redacted and serialised here,
 * away from the request, once per distinct body.
 */
export function journalBatch(
  entries: PendingEntry[],
  processId: string,
): { batch: JournalBatchRow; bodies: BatchBodies } {
  const bodies = new BatchBodies()
  let lastAtMs = Number.NEGATIVE_INFINITY
  let lastRealMs = Number.NEGATIVE_INFINITY
  const rows: JournalValues[] = entries.map((e) => {
    if (e.atMs > lastAtMs) lastAtMs = e.atMs
    if (e.realMs > lastRealMs) lastRealMs = e.realMs
    return [
      e.atMs,
      e.realMs,
      e.method,
      e.path,
      e.query,
      e.status,
      Math.round(e.durationMs * 1000) / 1000,
      e.accountId,
      e.userId,
      e.tokenId,
      bodies.keyOf(e.requestBody),
      bodies.keyOf(e.responseBody),
      e.faultRule,
      e.outcome,
    ]
  })
  const batch = {
    process: processId,
    entries: rows.length,
    lastAtMs,
    lastRealMs,
    rows: JSON.stringify(rows),
    digests: JSON.stringify([...bodies.texts.keys()]),
  }
  return { batch, bodies }
}

/** A batch's bodies as one JSON text: `[digest, text]` pairs. */
export const bodiesPayload = (bodies: BatchBodies): string => JSON.stringify([...bodies.texts])
