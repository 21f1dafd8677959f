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
  'request_body',
  'response_body',
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

/**
 * The rows to store, each as its values (what the statement binds, or the batch's JSON holds):
 * bodies redacted and serialised here, away from the request.
 */
export function journalRows(entries: PendingEntry[], processId: string): JournalValues[] {
  return entries.map((e) => [
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
    journalBody(e.requestBody),
    journalBody(e.responseBody),
    e.faultRule,
    e.outcome,
  ])
}

/** A batch as one JSON text: an array per row, its values in JOURNAL_COLUMNS order. */
export const journalPayload = (rows: JournalValues[]): string => JSON.stringify(rows)
