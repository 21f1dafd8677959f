import type { PendingEntry } from '../../../src/modules/control/journal/journal-writer.ts'

/** A `GET` answered 200, as the request hook hands it to the journal's writer. */
export const journalEntry = (
  path: string,
  atMs = Date.now(),
  responseBody?: PendingEntry['responseBody'],
): PendingEntry => ({
  atMs,
  realMs: Date.now(),
  method: 'GET',
  path,
  query: '',
  status: 200,
  durationMs: 1,
  accountId: null,
  userId: null,
  tokenId: null,
  requestBody: undefined,
  responseBody,
  faultRule: null,
  outcome: null,
})
