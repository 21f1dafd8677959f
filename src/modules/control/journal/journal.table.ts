import type { Generated, Selectable } from 'kysely'

/**
 * Entries as they are written: one row per batch a process wrote. Its entries' ids are
 * `first_id` … `first_id + entries - 1`, in the order of `rows`, a JSON array with an array per
 * entry (its fields in JOURNAL_FIELDS order, journal-rows.ts).
 */
export interface ControlJournalBatchesTable {
  first_id: number
  entries: number
  process: string
  /** The newest entry's time, by the virtual clock (a trim by age removes whole batches)… */
  last_at_ms: number
  /** …and by the real one (a clear removes the batches written before it). */
  last_real_ms: number
  rows: string
  /** The bodies its entries name: a JSON array of their digests. */
  digests: string
}

/**
 * One API request as the journal keeps it (bodies already redacted, in their own table): a view
 * over control_journal_batches, one row per entry of each batch. Read only.
 */
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
  /** The key of the request's body in control_journal_bodies (null: none). */
  request_digest: string | null
  /** The key of the answer's body. */
  response_digest: string | null
  fault_rule: number | null
  /** Null for an ordinary answer; `dropped` (a fault rule closed the connection) or `client_closed`. */
  outcome: string | null
}

/**
 * Each body the journal holds, once however many entries name it: its redacted text, keyed by a
 * digest of that text (bodies that were journalled before there was this table: by their entry).
 */
export interface ControlJournalBodiesTable {
  digest: string
  body: string
}

/** An entry as it is read: its row with its bodies' text in place of their keys. */
export type JournalRow = Omit<Selectable<ControlJournalTable>, 'request_digest' | 'response_digest'> & {
  request_body: string | null
  response_body: string | null
}
