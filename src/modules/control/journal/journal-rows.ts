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
] as const satisfies ReadonlyArray<keyof NewJournalRow>

/** A request as the hot path hands it over: bodies still raw, redacted later off that path. */
export interface PendingEntry {
  atMs: number
  realMs: number
  method: string
  path: string
  query: string
  status: number
  durationMs: number
  accountId: number | null
  userId: number | null
  tokenId: number | null
  requestBody: unknown
  responseBody: unknown
  faultRule: number | null
}

/** The rows to store: bodies redacted and serialised here, away from the request. */
export function journalRows(entries: PendingEntry[], processId: string): NewJournalRow[] {
  return entries.map((e) => ({
    at_ms: e.atMs,
    real_ms: e.realMs,
    process: processId,
    method: e.method,
    path: e.path,
    query: e.query,
    status: e.status,
    duration_ms: Math.round(e.durationMs * 1000) / 1000,
    account_id: e.accountId,
    user_id: e.userId,
    token_id: e.tokenId,
    request_body: journalBody(e.requestBody),
    response_body: journalBody(e.responseBody),
    fault_rule: e.faultRule,
  }))
}
