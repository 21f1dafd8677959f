import { sql } from 'kysely'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { getMeta, setMeta } from '../../../db/meta.repository.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { JournalRow } from './journal.table.ts'
import { JOURNAL_COLUMNS } from './journal-rows.ts'

export type { NewJournalRow } from './journal-rows.ts'

const PG_TYPES = [
  'bigint',
  'bigint',
  'text',
  'text',
  'text',
  'text',
  'integer',
  'double precision',
  'bigint',
  'bigint',
  'bigint',
  'text',
  'text',
  'bigint',
  'text',
]

/**
 * A whole batch in one statement: the rows go as one JSON array (journalPayload) that the database
 * unpacks (SQLite's json_each, PostgreSQL's json_array_elements), one parameter and one statement
 * text whatever the batch's size, so the statement is prepared once and each row costs the
 * engine's C code only.
 */
export async function insertJournalPayload(db: Db, payload: string): Promise<void> {
  const columns = sql.join(JOURNAL_COLUMNS.map((c) => sql.ref(c)))
  if (dialectOf(db) === 'postgres') {
    const values = sql.join(JOURNAL_COLUMNS.map((_c, i) => sql.raw(`(e->>${i})::${PG_TYPES[i]}`)))
    await sql`insert into control_journal (${columns}) select ${values} from json_array_elements(${payload}::json) as e`.execute(
      db,
    )
  } else {
    const values = sql.join(JOURNAL_COLUMNS.map((_c, i) => sql.raw(`value ->> ${i}`)))
    await sql`insert into control_journal (${columns}) select ${values} from json_each(${payload})`.execute(
      db,
    )
  }
}

/** Keeps the journal a ring: the newest `maxEntries`, none older than `oldestMs`. */
export async function pruneJournal(db: Db, maxEntries: number, oldestMs: number): Promise<void> {
  await db.deleteFrom('control_journal').where('at_ms', '<', oldestMs).execute()
  const cut = await db
    .selectFrom('control_journal')
    .select('id')
    .orderBy('id', 'desc')
    .offset(maxEntries)
    .limit(1)
    .executeTakeFirst()
  if (cut !== undefined) await db.deleteFrom('control_journal').where('id', '<=', cut.id).execute()
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

function filtered(db: Db, q: JournalQuery) {
  let query = db.selectFrom('control_journal').where('real_ms', '>=', q.clearedMs)
  if (q.method !== undefined) query = query.where('method', '=', q.method)
  if (q.pathPrefix !== undefined) {
    // substr, not LIKE: no escaping of `%` and `_`, case-sensitive, and the same on both engines.
    const prefix = q.pathPrefix
    query = query.where(sql<string>`substr(${sql.ref('path')}, 1, ${prefix.length})`, '=', prefix)
  }
  if (q.status !== undefined) query = query.where('status', '=', q.status)
  if (q.accountId !== undefined) query = query.where('account_id', '=', q.accountId)
  if (q.fromMs !== undefined) query = query.where('at_ms', '>=', q.fromMs)
  if (q.toMs !== undefined) query = query.where('at_ms', '<', q.toMs)
  return query
}

/** One page, newest first, and the total that matched. */
export async function queryJournal(db: Db, q: JournalQuery): Promise<{ rows: JournalRow[]; total: number }> {
  const count = await filtered(db, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const rows = await filtered(db, q)
    .selectAll()
    .orderBy('id', 'desc')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute()
  return { rows, total: Number(count.n) }
}

export async function findJournalRow(db: Db, id: number, clearedMs: number): Promise<JournalRow | undefined> {
  return db
    .selectFrom('control_journal')
    .selectAll()
    .where('id', '=', id)
    .where('real_ms', '>=', clearedMs)
    .executeTakeFirst()
}

/**
 * Empties the journal, and marks when: a request that started before, whose entry another process
 * still holds in its buffer, stays out of every answer when that entry is written.
 */
export async function clearJournal(db: Db, nowMs: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    await setMeta(trx, 'journal_cleared_ms', String(nowMs))
    await setMeta(trx, 'journal_dropped', '0')
    const result = await trx.deleteFrom('control_journal').where('real_ms', '<', nowMs).executeTakeFirst()
    return Number(result.numDeletedRows)
  })
}

/** Counts entries a process dropped because its buffer was full (across processes, since the last clear). */
export async function addJournalDropped(db: Db, count: number): Promise<void> {
  const cast = dialectOf(db) === 'postgres' ? sql`bigint` : sql`integer`
  await sql`insert into meta (key, value) values ('journal_dropped', ${String(count)})
    on conflict (key) do update set value = cast(cast(meta.value as ${cast}) + cast(excluded.value as ${cast}) as text)`.execute(
    db,
  )
}

export async function journalDropped(db: Db): Promise<number> {
  return Number((await getMeta(db, 'journal_dropped')) ?? 0)
}

export async function journalClearedMs(db: Db): Promise<number> {
  return Number((await getMeta(db, 'journal_cleared_ms')) ?? 0)
}
