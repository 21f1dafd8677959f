import { hash } from 'node:crypto'
import type { Insertable } from 'kysely'
import type { ControlJournalTable } from './journal.table.ts'
import { journalBody } from './journal-redact.ts'

export type NewJournalRow = Omit<Insertable<ControlJournalTable>, 'id'>

/** The columns in the order each row's JSON array gives them (one array per row, one JSON per batch). */
export const JOURNAL_COLUMNS = [
  'at_ms',
  'real_ms',
  'process',
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
] as const satisfies ReadonlyArray<keyof NewJournalRow>

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

/** A row to store as its values, in JOURNAL_COLUMNS order. */
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

/**
 * The rows to store, each as its values (what the statement binds, or the batch's JSON holds),
 * and their bodies: redacted and serialised here, away from the request, once per distinct body.
 */
export function journalRows(
  entries: PendingEntry[],
  processId: string,
): { rows: JournalValues[]; bodies: BatchBodies } {
  const bodies = new BatchBodies()
  const rows = entries.map((e) => [
    e.atMs,
    e.realMs,
    processId,
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
  ])
  return { rows, bodies }
}

/** Where each row's body keys are, in JOURNAL_COLUMNS. */
export const BODY_KEY_COLUMNS = [
  JOURNAL_COLUMNS.indexOf('request_digest'),
  JOURNAL_COLUMNS.indexOf('response_digest'),
] as const

/** A batch's rows as one JSON text: an array per row, its values in JOURNAL_COLUMNS order. */
export const journalPayload = (rows: JournalValues[]): string => JSON.stringify(rows)

/** A batch's bodies as one JSON text: `[digest, text]` pairs. */
export const bodiesPayload = (bodies: BatchBodies): string => JSON.stringify([...bodies.texts])
