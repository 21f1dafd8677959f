import { sql } from 'kysely'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { getMeta, setMeta } from '../../../db/meta.repository.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { JournalRow } from './journal.table.ts'
import type { JournalPayload } from './journal.worker.ts'
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
 * On PostgreSQL, writers of entries share this lock and whoever removes bodies takes it alone: a
 * writer's `on conflict do nothing` finds a body without locking it, so without this a trim could
 * remove a body that a batch being written names (a trim's statement does not see rows not yet
 * committed). On SQLite each write transaction has the database to itself already.
 */
const BODIES_LOCK = 7270013

async function lockBodies(db: Db, alone: boolean): Promise<void> {
  if (dialectOf(db) !== 'postgres') return
  if (alone) await sql`select pg_advisory_xact_lock(${BODIES_LOCK})`.execute(db)
  else await sql`select pg_advisory_xact_lock_shared(${BODIES_LOCK})`.execute(db)
}

/**
 * A whole batch in two statements, in the caller's transaction: its bodies (those not stored
 * yet), then its rows, each set as one JSON array that the database unpacks (SQLite's json_each,
 * PostgreSQL's json_array_elements): one parameter and one statement text whatever the batch's
 * size, so each statement is prepared once and each row costs the engine's C code only.
 */
export async function insertJournalPayload(db: Db, payload: JournalPayload): Promise<void> {
  await lockBodies(db, false)
  const columns = sql.join(JOURNAL_COLUMNS.map((c) => sql.ref(c)))
  if (dialectOf(db) === 'postgres') {
    await sql`insert into control_journal_bodies (digest, body)
      select e->>0, e->>1 from json_array_elements(${payload.bodies}::json) as e
      on conflict (digest) do nothing`.execute(db)
    const values = sql.join(JOURNAL_COLUMNS.map((_c, i) => sql.raw(`(e->>${i})::${PG_TYPES[i]}`)))
    await sql`insert into control_journal (${columns}) select ${values} from json_array_elements(${payload.rows}::json) as e`.execute(
      db,
    )
  } else {
    await sql`insert into control_journal_bodies (digest, body)
      select value ->> 0, value ->> 1 from json_each(${payload.bodies}) where true
      on conflict (digest) do nothing`.execute(db)
    const values = sql.join(JOURNAL_COLUMNS.map((_c, i) => sql.raw(`value ->> ${i}`)))
    await sql`insert into control_journal (${columns}) select ${values} from json_each(${payload.rows})`.execute(
      db,
    )
  }
}

/** Removes the bodies that no entry names; the caller holds the bodies alone (lockBodies). */
async function pruneBodies(db: Db): Promise<void> {
  await db
    .deleteFrom('control_journal_bodies')
    .where('digest', 'not in', (eb) =>
      eb
        .selectFrom('control_journal')
        .select('request_digest as digest')
        .where('request_digest', 'is not', null)
        .unionAll(
          eb
            .selectFrom('control_journal')
            .select('response_digest as digest')
            .where('response_digest', 'is not', null),
        ),
    )
    .execute()
}

/**
 * Keeps the journal a ring: the newest `maxEntries`, none older than `oldestMs`, and (with
 * `bodies`) only the bodies those name. In a transaction of its own, apart from writes of
 * entries (on PostgreSQL, removing bodies waits for those in progress).
 */
export async function pruneJournal(
  db: Db,
  { maxEntries, oldestMs, bodies }: { maxEntries: number; oldestMs: number; bodies: boolean },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (bodies) await lockBodies(trx, true)
    await trx.deleteFrom('control_journal').where('at_ms', '<', oldestMs).execute()
    const cut = await trx
      .selectFrom('control_journal')
      .select('id')
      .orderBy('id', 'desc')
      .offset(maxEntries)
      .limit(1)
      .executeTakeFirst()
    if (cut !== undefined) await trx.deleteFrom('control_journal').where('id', '<=', cut.id).execute()
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

/** Entries with their bodies' text. */
function withBodies(db: Db, q: JournalQuery | undefined) {
  const rows = q === undefined ? db.selectFrom('control_journal') : filtered(db, q)
  return rows
    .leftJoin('control_journal_bodies as request', 'request.digest', 'control_journal.request_digest')
    .leftJoin('control_journal_bodies as response', 'response.digest', 'control_journal.response_digest')
    .select([
      'control_journal.id',
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
      'request.body as request_body',
      'response.body as response_body',
      'fault_rule',
      'outcome',
    ])
}

/** One page, newest first, and the total that matched. */
export async function queryJournal(db: Db, q: JournalQuery): Promise<{ rows: JournalRow[]; total: number }> {
  const count = await filtered(db, q)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow()
  const rows = await withBodies(db, q)
    .orderBy('control_journal.id', 'desc')
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize)
    .execute()
  return { rows, total: Number(count.n) }
}

export async function findJournalRow(db: Db, id: number, clearedMs: number): Promise<JournalRow | undefined> {
  return withBodies(db, undefined)
    .where('control_journal.id', '=', id)
    .where('real_ms', '>=', clearedMs)
    .executeTakeFirst()
}

/**
 * Empties the journal, and marks when: a request that started before, whose entry another process
 * still holds in its buffer, stays out of every answer when that entry is written.
 */
export async function clearJournal(db: Db, nowMs: number): Promise<number> {
  return inTransaction(db, async (trx) => {
    // First, as every writer of entries takes it first (no two locks taken in opposite orders).
    await lockBodies(trx, true)
    await setMeta(trx, 'journal_cleared_ms', String(nowMs))
    await setMeta(trx, 'journal_dropped', '0')
    const result = await trx.deleteFrom('control_journal').where('real_ms', '<', nowMs).executeTakeFirst()
    await pruneBodies(trx)
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
