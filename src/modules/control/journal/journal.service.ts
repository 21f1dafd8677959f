import type { Static } from 'typebox'
import { badRequest, notFound } from '../../../common/errors.ts'
import { parseTimestamp } from '../../../common/time.ts'
import type { ControlContext } from '../control-context.ts'
import { findAccountOfUsername } from '../faults/faults.repository.ts'
import {
  clearJournal,
  findJournalRow,
  journalClearedMs,
  journalDropped,
  queryJournal,
} from './journal.repository.ts'
import type { JournalQuerySchema } from './journal.schemas.ts'
import type { JournalRow } from './journal.table.ts'
import { curlCommand } from './journal-curl.ts'
import type { JournalOutcome } from './journal-rows.ts'
import type { JournalWriter } from './journal-writer.ts'

type JournalQueryInput = Static<typeof JournalQuerySchema>

const parseBody = (text: string | null): unknown => {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const nullableNumber = (value: number | null): number | null => (value === null ? null : Number(value))

export function entryView(row: JournalRow) {
  return {
    id: Number(row.id),
    time: new Date(Number(row.at_ms)).toISOString().replace('Z', ''),
    process: row.process,
    method: row.method,
    path: row.path,
    query: row.query,
    status: nullableNumber(row.status),
    duration_ms: Number(row.duration_ms),
    account_id: nullableNumber(row.account_id),
    user_id: nullableNumber(row.user_id),
    token_id: nullableNumber(row.token_id),
    request_body: parseBody(row.request_body),
    response_body: parseBody(row.response_body),
    fault_rule: nullableNumber(row.fault_rule),
    outcome: row.outcome as JournalOutcome | null,
  }
}

function instantMs(text: string | undefined, field: string): number | undefined {
  if (text === undefined) return undefined
  const timestamp = parseTimestamp(text)
  if (timestamp === undefined) throw badRequest('must be a date-time such as 2030-01-01T00:00:00', field)
  return Date.parse(`${timestamp}Z`)
}

/** The journal as this process sees it: its own buffered entries are written first. */
export async function listJournal(ctx: ControlContext, writer: JournalWriter, input: JournalQueryInput) {
  await writer.flush()
  let accountId: number | undefined
  if (input.username !== undefined) {
    accountId = await findAccountOfUsername(ctx.db, input.username)
    if (accountId === undefined) throw badRequest(`no user named "${input.username}"`, 'username')
  }
  const page = Number(input.page ?? 1)
  const pageSize = Number(input.page_size ?? 100)
  if (pageSize > 500) throw badRequest('must be at most 500', 'page_size')
  const { rows, total } = await queryJournal(ctx.db, {
    clearedMs: await journalClearedMs(ctx.db),
    method: input.method,
    pathPrefix: input.path,
    status: input.status === undefined ? undefined : Number(input.status),
    accountId,
    fromMs: instantMs(input.since, 'since'),
    toMs: instantMs(input.until, 'until'),
    page,
    pageSize,
  })
  return {
    data: rows.map(entryView),
    page,
    pages: Math.max(1, Math.ceil(total / pageSize)),
    results: total,
    dropped: await journalDropped(ctx.db),
  }
}

export async function journalCurl(ctx: ControlContext, writer: JournalWriter, id: number, baseUrl: string) {
  await writer.flush()
  const row = await findJournalRow(ctx.db, id, await journalClearedMs(ctx.db))
  if (row === undefined) throw notFound()
  return curlCommand(row, baseUrl)
}

export async function clearAll(ctx: ControlContext, writer: JournalWriter): Promise<{ deleted: number }> {
  await writer.flush()
  return { deleted: await clearJournal(ctx.db, Date.now()) }
}
