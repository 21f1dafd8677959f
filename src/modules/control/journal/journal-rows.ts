import type { ControlJournalTable } from './journal.table.ts'

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

/** A batch's bodies as one JSON text: `[digest, text]` pairs. */
export const bodiesPayload = (bodies: Map<string, string>): string => JSON.stringify([...bodies])
