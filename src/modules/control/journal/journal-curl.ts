import type { JournalRow } from './journal.table.ts'

/** Single-quotes a word for a POSIX shell. */
const shellQuote = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`

/**
 * A journal entry as a `curl` command line against `baseUrl`. The token was never recorded: the
 * command reads it from `$CLOUDPLANE_TOKEN`; redacted body fields stay `[redacted]`.
 */
export function curlCommand(row: JournalRow, baseUrl: string): string {
  const url = `${baseUrl}${row.path}${row.query === '' ? '' : `?${row.query}`}`
  const parts = ['curl']
  if (row.method !== 'GET') parts.push('-X', row.method)
  parts.push(shellQuote(url))
  if (row.token_id !== null) parts.push('-H', '"Authorization: Bearer $CLOUDPLANE_TOKEN"')
  const body = row.request_body
  if (body?.startsWith('{')) {
    parts.push('-H', shellQuote('Content-Type: application/json'), '--data', shellQuote(body))
  }
  return parts.join(' ')
}
