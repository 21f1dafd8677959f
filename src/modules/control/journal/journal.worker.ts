import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { type EncodedChunk, readChunk } from './journal-chunks.ts'
import { JOURNAL_COLUMNS, type JournalValues, journalPayload, journalRows } from './journal-rows.ts'

/**
 * The journal's thread: redacts and serialises each batch, so that this work never holds up a
 * request. On a SQLite file it also writes the batch, on its own connection, which does not wait
 * for the disk on commit (synchronous=OFF): a journal may lose its last entries in a power cut,
 * never the state's data, which the server's own connection keeps durable. Without a file
 * (PostgreSQL) it hands the batch back as one JSON text for the server's pool to send.
 */
export interface JournalBatch {
  id: number
  /** The entries, as the writer's buffer holds them (transferred). */
  chunks: EncodedChunk[]
  /** Entries this process dropped (its buffer was full) since its last batch. */
  dropped: number
  /** Trim the ring after this batch. */
  prune?: { maxEntries: number; oldestMs: number }
}

export interface JournalReply {
  id: number
  /** The batch as journalPayload made it, when this thread does not write it (none: no rows). */
  payload?: string
  error?: string
}

const { filename, processId } = workerData as { filename: string | undefined; processId: string }

interface Statements {
  db: DatabaseSync
  insert: StatementSync
  addDropped: StatementSync
  pruneAge: StatementSync
  pruneCount: StatementSync
}

function open(file: string): Statements {
  const db = new DatabaseSync(file)
  db.exec('pragma busy_timeout = 5000')
  db.exec('pragma synchronous = OFF')
  const columns = JOURNAL_COLUMNS.join(', ')
  const slots = JOURNAL_COLUMNS.map(() => '?').join(', ')
  return {
    db,
    // One prepared statement run per row, in one transaction: cheaper here than one statement
    // over a JSON array (its columns are each read back out of the row's JSON).
    insert: db.prepare(`insert into control_journal (${columns}) values (${slots})`),
    addDropped: db.prepare(
      `insert into meta (key, value) values ('journal_dropped', ?) on conflict (key) do update set value = cast(cast(meta.value as integer) + cast(excluded.value as integer) as text)`,
    ),
    pruneAge: db.prepare('delete from control_journal where at_ms < ?'),
    pruneCount: db.prepare(
      'delete from control_journal where id <= (select id from control_journal order by id desc limit 1 offset ?)',
    ),
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

function write(s: Statements, batch: JournalBatch, rows: JournalValues[]): void {
  for (let from = 0; from < rows.length; from += ROWS_PER_TRANSACTION) {
    inTransaction(s, () => {
      const to = Math.min(rows.length, from + ROWS_PER_TRANSACTION)
      for (let i = from; i < to; i++) s.insert.run(...(rows[i] ?? []))
    })
  }
  if (batch.dropped > 0 || batch.prune) {
    inTransaction(s, () => {
      if (batch.dropped > 0) s.addDropped.run(String(batch.dropped))
      if (batch.prune) {
        s.pruneAge.run(batch.prune.oldestMs)
        s.pruneCount.run(batch.prune.maxEntries)
      }
    })
  }
}

parentPort?.on('message', (batch: JournalBatch) => {
  try {
    const rows = journalRows(batch.chunks.flatMap(readChunk), processId)
    if (sqlite === undefined) {
      const payload = rows.length === 0 ? undefined : journalPayload(rows)
      parentPort?.postMessage({
        id: batch.id,
        ...(payload !== undefined && { payload }),
      } satisfies JournalReply)
      return
    }
    write(sqlite, batch, rows)
    parentPort?.postMessage({ id: batch.id } satisfies JournalReply)
  } catch (error) {
    parentPort?.postMessage({ id: batch.id, error: (error as Error).message } satisfies JournalReply)
  }
})
