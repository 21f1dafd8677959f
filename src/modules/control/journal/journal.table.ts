import type { Generated, Selectable } from 'kysely'

/** One API request as the journal keeps it (bodies already redacted). */
export interface ControlJournalTable {
  id: Generated<number>
  at_ms: number
  real_ms: number
  process: string
  method: string
  path: string
  query: string
  /** Null when no answer was sent (a dropped connection). */
  status: number | null
  duration_ms: number
  account_id: number | null
  user_id: number | null
  token_id: number | null
  request_body: string | null
  response_body: string | null
  fault_rule: number | null
  /** Null for an ordinary answer; `dropped` (a fault rule closed the connection) or `client_closed`. */
  outcome: string | null
}

export type JournalRow = Selectable<ControlJournalTable>
