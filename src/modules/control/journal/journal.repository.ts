import { type RawBuilder, sql } from 'kysely'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { getMeta, setMeta } from '../../../db/meta.repository.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { JournalRow } from './journal.table.ts'
import { JOURNAL_FIELDS, type JournalBatchRow, type JournalValues } from './journal-rows.ts'
import {
  addDroppedSql,
  BODIES_LOCK,
  INSERT_BATCH_SQL,
  insertBodiesSql,
  PRUNE_SQL,
  pruneBodiesSql,
  reserveIdsSql,
} from './journal-sql.ts'

/** One of journal-sql.ts's statements with its `?` slots filled, as the journal's thread runs it. */
function slotted<T = unknown>(text: string, ...values: unknown[]): RawBuilder<T> {
  const parts = text.split('?')
  return sql<T>(Object.assign(parts, { raw: parts }), ...values)
}

const isPostgres = (db: Db) => dialectOf(db) === 'postgres'
const integerOf = (db: Db) => (isPostgres(db) ? 'bigint' : 'integer')
const pruneBodies = (db: Db) => sql.raw(pruneBodiesSql(isPostgres(db))).execute(db)

/** On PostgreSQL: shared by writers of entries, taken alone to remove bodies (see BODIES_LOCK). */
async function lockBodies(db: Db, alone: boolean): Promise<void> {
  if (!isPostgres(db)) return
  if (alone) await sql`select pg_advisory_xact_lock(${BODIES_LOCK})`.execute(db)
  else await sql`select pg_advisory_xact_lock_shared(${BODIES_LOCK})`.execute(db)
}

/**
 * A whole batch, in the caller's transaction, as the journal's thread writes it: its bodies (those
 * not stored yet), its ids reserved, then its one row.
 */
export async function insertJournalBatch(
  db: Db,
  { batch, bodies }: { batch: JournalBatchRow; bodies: string },
): Promise<void> {
  await lockBodies(db, false)
  await slotted(insertBodiesSql(isPostgres(db)), bodies).execute(db)
  const reserved = await slotted<{ value: string }>(
    reserveIdsSql(integerOf(db)),
    String(batch.entries),
  ).execute(db)
  const { entries, process, lastAtMs, lastRealMs, rows, digests } = batch
  const firstId = Number(reserved.rows[0]?.value) - entries + 1
  await slotted(INSERT_BATCH_SQL, firstId, entries, process, lastAtMs, lastRealMs, rows, digests).execute(db)
}

/**
 * Keeps the journal a ring: the newest `maxEntries` (by whole batches), none all of whose entries
 * are older than `oldestMs`, and (with `bodies`) only the bodies those name. In a transaction of
 * its own, apart from writes of entries (on PostgreSQL, removing bodies waits for those in
 * progress).
 */
export async function pruneJournal(
  db: Db,
  { maxEntries, oldestMs, bodies }: { maxEntries: number; oldestMs: number; bodies: boolean },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (bodies) await lockBodies(trx, true)
    await slotted(PRUNE_SQL, oldestMs, maxEntries).execute(trx)
    if (bodies) await pruneBodies(trx)
  })
}

export interface JournalQuery {
  /** Entries of requests started before this (real ms, the last clear) are not shown. */
  clearedMs: number
  method?: string
  pathPrefix?: string
  status?: number
  accountId?: number
  fromMs?: number
  toMs?: number
  page: number
  pageSize: number
}

/** An entry as its batch stores it: its values by name, bodies by digest. */
type StoredEntry = Omit<JournalRow, 'request_body' | 'response_body'> & {
  request_digest: string | null
  response_digest: string | null
}

/**
 * A batch's entries, decoded here rather than by the database: the view `control_journal` reads
 * each field out of each entry's JSON again (hundreds of milliseconds for a ring of ten thousand),
 * JSON.parse reads a batch's text once (milliseconds).
 */
function entriesOf(batch: { first_id: number; process: string; rows: string }): StoredEntry[] {
  const rows = JSON.parse(batch.rows) as JournalValues[]
  const firstId = Number(batch.first_id)
  return rows.map((values, i) => {
    const entry: Record<string, unknown> = { id: firstId + i, process: batch.process }
    JOURNAL_FIELDS.forEach((field, k) => {
      entry[field] = values[k] ?? null
    })
    return entry as StoredEntry
  })
}

const matches = (e: StoredEntry, q: JournalQuery): boolean =>
  e.real_ms >= q.clearedMs &&
  (q.method === undefined || e.method === q.method) &&
  // A prefix as it is: no escaping of `%` and `_`, case-sensitive.
  (q.pathPrefix === undefined || e.path.startsWith(q.pathPrefix)) &&
  (q.status === undefined || e.status === q.status) &&
  (q.accountId === undefined || e.account_id === q.accountId) &&
  (q.fromMs === undefined || e.at_ms >= q.fromMs) &&
  (q.toMs === undefined || e.at_ms < q.toMs)

/** Entries with their bodies' text in place of their digests. */
async function withBodies(db: Db, entries: StoredEntry[]): Promise<JournalRow[]> {
  const digests = new Set<string>()
  for (const e of entries) {
    if (e.request_digest !== null) digests.add(e.request_digest)
    if (e.response_digest !== null) digests.add(e.response_digest)
  }
  const bodies = new Map<string, string>()
  if (digests.size > 0) {
    const found = await db
      .selectFrom('control_journal_bodies')
      .select(['digest', 'body'])
      .where('digest', 'in', [...digests])
      .execute()
    for (const { digest, body } of found) bodies.set(digest, body)
  }
  return entries.map(({ request_digest, response_digest, ...entry }) => ({
    ...entry,
    request_body: request_digest === null ? null : (bodies.get(request_digest) ?? null),
    response_body: response_digest === null ? null : (bodies.get(response_digest) ?? null),
  }))
}

/**
 * One page, newest first, and the total that matched: the batches that may hold a match (by their
 * newest entry's times) are read and decoded, newest first; the ring bounds them.
 */
export async function queryJournal(db: Db, q: JournalQuery): Promise<{ rows: JournalRow[]; total: number }> {
  let batches = db
    .selectFrom('control_journal_batches')
    .select(['first_id', 'process', 'rows'])
    .where('last_real_ms', '>=', q.clearedMs)
  if (q.fromMs !== undefined) batches = batches.where('last_at_ms', '>=', q.fromMs)
  const matched: StoredEntry[] = []
  for (const batch of await batches.orderBy('first_id', 'desc').execute()) {
    const entries = entriesOf(batch)
    for (let i = entries.length - 1; i >= 0; i--) {
      const e = entries[i] as StoredEntry
      if (matches(e, q)) matched.push(e)
    }
  }
  const from = (q.page - 1) * q.pageSize
  return { rows: await withBodies(db, matched.slice(from, from + q.pageSize)), total: matched.length }
}

export async function findJournalRow(db: Db, id: number, clearedMs: number): Promise<JournalRow | undefined> {
  const batch = await db
    .selectFrom('control_journal_batches')
    .select(['first_id', 'process', 'rows'])
    .where('first_id', '<=', id)
    .orderBy('first_id', 'desc')
    .limit(1)
    .executeTakeFirst()
  const entry = batch === undefined ? undefined : entriesOf(batch)[id - Number(batch.first_id)]
  if (entry === undefined || entry.real_ms < clearedMs) return undefined
  return (await withBodies(db, [entry]))[0]
}

/**
 * Empties the journal, and marks when: a request that started before, whose entry another process
 * still holds in its buffer (or is writing in a batch with newer ones), stays out of every answer
 * (the listing's `clearedMs`).
 */
export async function clearJournal(db: Db, nowMs: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    // First, as every writer of entries takes it first (no two locks taken in opposite orders).
    await lockBodies(trx, true)
    await setMeta(trx, 'journal_cleared_ms', String(nowMs))
    await setMeta(trx, 'journal_dropped', '0')
    const before = trx.selectFrom('control_journal_batches').where('last_real_ms', '<', nowMs)
    const { n } = await before
      .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('entries'), eb.lit(0)).as('n'))
      .executeTakeFirstOrThrow()
    await trx.deleteFrom('control_journal_batches').where('last_real_ms', '<', nowMs).execute()
    await pruneBodies(trx)
    return Number(n)
  })
}

/** Counts entries a process dropped because its buffer was full (across processes, since the last clear). */
export async function addJournalDropped(db: Db, count: number): Promise<void> {
  await slotted(addDroppedSql(integerOf(db)), String(count)).execute(db)
}

export async function journalDropped(db: Db): Promise<number> {
  return Number((await getMeta(db, 'journal_dropped')) ?? 0)
}

export async function journalClearedMs(db: Db): Promise<number> {
  return Number((await getMeta(db, 'journal_cleared_ms')) ?? 0)
}
