import { DatabaseSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import { JOURNAL_COLUMNS, journalRows, type PendingEntry } from './journal-rows.ts'

/**
 * The journal's writing thread (SQLite files): redacts, serialises and inserts each batch on its
 * own connection, so that neither the work nor the disk writes hold up requests. Its connection
 * does not wait for the disk on commit (synchronous=OFF): a journal may lose its last entries in
 * a power cut, never the state's data, which the server's own connection keeps durable.
 */
export interface JournalBatch {
  id: number
  entries: PendingEntry[]
  /** Trim the ring after this batch. */
  prune?: { maxEntries: number; oldestMs: number }
}

const { filename, processId } = workerData as { filename: string; processId: string }
const db = new DatabaseSync(filename)
db.exec('pragma busy_timeout = 5000')
db.exec('pragma synchronous = OFF')

const columns = JOURNAL_COLUMNS.join(', ')
const values = JOURNAL_COLUMNS.map((_c, i) => `value ->> ${i}`).join(', ')
const insert = db.prepare(`insert into control_journal (${columns}) select ${values} from json_each(?)`)
const pruneAge = db.prepare('delete from control_journal where at_ms < ?')
const pruneCount = db.prepare(
  'delete from control_journal where id <= (select id from control_journal order by id desc limit 1 offset ?)',
)

parentPort?.on('message', (batch: JournalBatch) => {
  try {
    const rows = journalRows(batch.entries, processId)
    const payload = JSON.stringify(rows.map((row) => JOURNAL_COLUMNS.map((c) => row[c] ?? null)))
    db.exec('begin immediate')
    try {
      insert.run(payload)
      if (batch.prune) {
        pruneAge.run(batch.prune.oldestMs)
        pruneCount.run(batch.prune.maxEntries)
      }
      db.exec('commit')
    } catch (error) {
      db.exec('rollback')
      throw error
    }
    parentPort?.postMessage({ id: batch.id })
  } catch (error) {
    parentPort?.postMessage({ id: batch.id, error: (error as Error).message })
  }
})
