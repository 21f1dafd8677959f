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
  status: number
  duration_ms: number
  account_id: number | null
  user_id: number | null
  token_id: number | null
  request_body: string | null
  response_body: string | null
  fault_rule: number | null
}

export type JournalRow = Selectable<ControlJournalTable>
