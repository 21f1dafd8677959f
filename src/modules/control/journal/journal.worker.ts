import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { type EncodedChunk, readChunk } from './journal-chunks.ts'
import {
  BODY_KEY_COLUMNS,
  bodiesPayload,
  JOURNAL_COLUMNS,
  type JournalValues,
  journalPayload,
  journalRows,
} from './journal-rows.ts'

/**
 * The journal's thread: redacts and serialises each batch, each distinct body once, so that this
 * work never holds up a request. On a SQLite file it also writes the batch, on its own connection,
 * which does not wait for the disk on commit (synchronous=NORMAL): a journal may lose its last
 * entries in a power cut, never the state's data, which the server's own connection keeps durable.
 * Not OFF: a checkpoint run by this connection copies the server's transactions too, and must
 * reach the disk before the write-ahead log starts over.
 * Without a file (PostgreSQL) it hands the batch back as JSON texts (its rows, its bodies) for the
 * server's pool to send.
 */
export interface JournalBatch {
  id: number
  /** The entries, as the writer's buffer holds them (transferred). */
  chunks: EncodedChunk[]
  /** Entries this process dropped (its buffer was full) since its last batch. */
  dropped: number
  /** Trim the ring after this batch; with `bodies`, also remove the bodies no entry names. */
  prune?: { maxEntries: number; oldestMs: number; bodies: boolean }
}

/** A batch as the server's own connection stores it: JSON texts of its rows and of its bodies. */
export interface JournalPayload {
  rows: string
  bodies: string
}

export interface JournalReply {
  id: number
  /** The batch, when this thread does not write it (none: no rows). */
  payload?: JournalPayload
  error?: string
}

const { filename, processId } = workerData as { filename: string | undefined; processId: string }

interface Statements {
  db: DatabaseSync
  insert: StatementSync
  insertBody: StatementSync
  addDropped: StatementSync
  pruneAge: StatementSync
  pruneCount: StatementSync
  pruneBodies: StatementSync
}

/** Bodies no entry names any more (the ring was trimmed past them). */
const PRUNE_BODIES_SQL = `delete from control_journal_bodies where digest not in (
  select request_digest from control_journal where request_digest is not null
  union all select response_digest from control_journal where response_digest is not null)`

function open(file: string): Statements {
  const db = new DatabaseSync(file)
  db.exec('pragma busy_timeout = 5000')
  db.exec('pragma synchronous = NORMAL')
  const columns = JOURNAL_COLUMNS.join(', ')
  const slots = JOURNAL_COLUMNS.map(() => '?').join(', ')
  return {
    db,
    // One prepared statement run per row, in one transaction: cheaper here than one statement
    // over a JSON array (its columns are each read back out of the row's JSON).
    insert: db.prepare(`insert into control_journal (${columns}) values (${slots})`),
    // A body already stored (by this process or another) is left as it is.
    insertBody: db.prepare(
      'insert into control_journal_bodies (digest, body) values (?, ?) on conflict (digest) do nothing',
    ),
    addDropped: db.prepare(
      `insert into meta (key, value) values ('journal_dropped', ?) on conflict (key) do update set value = cast(cast(meta.value as integer) + cast(excluded.value as integer) as text)`,
    ),
    pruneAge: db.prepare('delete from control_journal where at_ms < ?'),
    pruneCount: db.prepare(
      'delete from control_journal where id <= (select id from control_journal order by id desc limit 1 offset ?)',
    ),
    pruneBodies: db.prepare(PRUNE_BODIES_SQL),
  }
}

const sqlite = filename === undefined ? undefined : open(filename)

/**
 * Rows per transaction: the server's own connection waits (asleep, event loop and all) for the
 * write lock while one is open, so each is kept to about a millisecond.
 */
const ROWS_PER_TRANSACTION = 200

function inTransaction(s: Statements, work: () => void): void {
  s.db.exec('begin immediate')
  try {
    work()
    s.db.exec('commit')
  } catch (error) {
    s.db.exec('rollback')
    throw error
  }
}

function write(s: Statements, batch: JournalBatch, rows: JournalValues[], bodies: Map<string, string>): void {
  for (let from = 0; from < rows.length; from += ROWS_PER_TRANSACTION) {
    inTransaction(s, () => {
      const to = Math.min(rows.length, from + ROWS_PER_TRANSACTION)
      // Each body in the transaction of the rows that name it: a trim by another process in
      // between removes only bodies that no stored entry names.
      const stored = new Set<string>()
      for (let i = from; i < to; i++) {
        const row = rows[i] ?? []
        for (const column of BODY_KEY_COLUMNS) {
          const key = row[column]
          if (typeof key !== 'string' || stored.has(key)) continue
          stored.add(key)
          s.insertBody.run(key, bodies.get(key) ?? '')
        }
        s.insert.run(...row)
      }
    })
  }
  if (batch.dropped > 0 || batch.prune) {
    inTransaction(s, () => {
      if (batch.dropped > 0) s.addDropped.run(String(batch.dropped))
      if (batch.prune) {
        s.pruneAge.run(batch.prune.oldestMs)
        s.pruneCount.run(batch.prune.maxEntries)
        if (batch.prune.bodies) s.pruneBodies.run()
      }
    })
  }
}

parentPort?.on('message', (batch: JournalBatch) => {
  try {
    const { rows, bodies } = journalRows(batch.chunks.flatMap(readChunk), processId)
    if (sqlite === undefined) {
      const payload =
        rows.length === 0 ? undefined : { rows: journalPayload(rows), bodies: bodiesPayload(bodies) }
      parentPort?.postMessage({
        id: batch.id,
        ...(payload !== undefined && { payload }),
      } satisfies JournalReply)
      return
    }
    write(sqlite, batch, rows, bodies.texts)
    parentPort?.postMessage({ id: batch.id } satisfies JournalReply)
  } catch (error) {
    parentPort?.postMessage({ id: batch.id, error: (error as Error).message } satisfies JournalReply)
  }
})
