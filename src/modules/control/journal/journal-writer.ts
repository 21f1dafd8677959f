import { Worker } from 'node:worker_threads'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { Clock } from '../../../common/time.ts'
import { type Db, sqliteEngineOf } from '../../../db/connect.ts'
import { insertJournalRows, pruneJournal } from './journal.repository.ts'
import type { JournalBatch } from './journal.worker.ts'
import { journalRows, type PendingEntry } from './journal-rows.ts'

export type { PendingEntry } from './journal-rows.ts'

export interface JournalLimits {
  /** Entries kept (the newest); the ring is trimmed each tenth of this. */
  maxEntries: number
  /** Entries older than this (by the virtual clock) are dropped. */
  maxAgeMs: number
  /** How often the buffer is written. */
  flushMs: number
}

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = {
  maxEntries: 10_000,
  maxAgeMs: 24 * 3600_000,
  flushMs: 250,
}

/** Entries buffered before a write is started without waiting for the timer. */
const FLUSH_AT = 2000
/** Entries held at most while writes lag; past this the newest are dropped (the journal is a ring). */
const MAX_BUFFERED = 20_000

/** The worker's file, as `.ts` when run from source and `.js` once built. */
const WORKER_URL = new URL(
  `./journal.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

interface Sink {
  write(entries: PendingEntry[], prune: JournalBatch['prune']): Promise<void>
  close(): Promise<void>
}

/** Writes from this thread (PostgreSQL, whose driver waits without working; in-memory SQLite). */
function directSink(db: Db, processId: string): Sink {
  return {
    async write(entries, prune) {
      await insertJournalRows(db, journalRows(entries, processId))
      if (prune) await pruneJournal(db, prune.maxEntries, prune.oldestMs)
    },
    async close() {},
  }
}

/** Writes from a worker thread with its own connection to the SQLite file (journal.worker.ts). */
function workerSink(filename: string, processId: string): Sink {
  const worker = new Worker(WORKER_URL, { workerData: { filename, processId } })
  worker.unref()
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()
  let next = 1
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  worker.on('message', (reply: { id: number; error?: string }) => {
    const waiter = pending.get(reply.id)
    pending.delete(reply.id)
    if (reply.error === undefined) waiter?.resolve()
    else waiter?.reject(new Error(reply.error))
  })
  worker.on('error', failAll)
  worker.on('exit', () => failAll(new Error('the journal worker stopped')))
  return {
    write(entries, prune) {
      const id = next++
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        worker.postMessage({ id, entries, ...(prune && { prune }) } satisfies JournalBatch)
      })
    },
    async close() {
      await worker.terminate()
    },
  }
}

/** The SQLite file behind `db`, when it is one (not in memory). */
async function sqliteFile(db: Db): Promise<string | undefined> {
  if (sqliteEngineOf(db) === undefined) return undefined
  const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(db)
  const main = rows.rows.find((r) => r.name === 'main')?.file
  return main === undefined || main === '' ? undefined : main
}

/**
 * Writes journal entries off the hot path: a request only appends to a buffer; a timer hands the
 * buffer to the sink (a worker thread on SQLite files), which redacts, serialises and inserts it
 * in one statement, and trims the ring now and then.
 */
export class JournalWriter {
  readonly #db: Db
  readonly #clock: Clock
  readonly #log: FastifyBaseLogger
  readonly #limits: JournalLimits
  readonly #process = String(process.pid)
  #sink: Promise<Sink> | undefined
  #buffer: PendingEntry[] = []
  #timer: NodeJS.Timeout | undefined
  #writing: Promise<void> = Promise.resolve()
  /** Rows written since the ring was last trimmed: trimming every write would cost more than writing. */
  #sincePrune = 0

  constructor(db: Db, clock: Clock, log: FastifyBaseLogger, limits: Partial<JournalLimits> = {}) {
    this.#db = db
    this.#clock = clock
    this.#log = log
    this.#limits = { ...DEFAULT_JOURNAL_LIMITS, ...limits }
  }

  push(entry: PendingEntry): void {
    if (this.#buffer.length >= MAX_BUFFERED) return
    this.#buffer.push(entry)
    if (this.#buffer.length >= FLUSH_AT) void this.flush()
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#limits.flushMs)
      this.#timer.unref()
    }
  }

  /** Writes what is buffered; resolves once it (and any write before it) is in the database. */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    const entries = this.#buffer
    this.#buffer = []
    this.#writing = this.#writing
      .then(() => (entries.length === 0 ? undefined : this.#write(entries)))
      .catch((err) => this.#log.warn({ err }, 'journal write failed'))
    return this.#writing
  }

  /** Writes what is left and stops the worker. */
  async close(): Promise<void> {
    await this.flush()
    if (this.#sink !== undefined) await (await this.#sink).close()
  }

  #sinkFor(): Promise<Sink> {
    this.#sink ??= sqliteFile(this.#db).then((file) =>
      file === undefined ? directSink(this.#db, this.#process) : workerSink(file, this.#process),
    )
    return this.#sink
  }

  async #write(entries: PendingEntry[]): Promise<void> {
    this.#sincePrune += entries.length
    const due = this.#sincePrune >= Math.max(1, this.#limits.maxEntries / 10)
    if (due) this.#sincePrune = 0
    const prune = due
      ? { maxEntries: this.#limits.maxEntries, oldestMs: this.#clock.now().getTime() - this.#limits.maxAgeMs }
      : undefined
    await (await this.#sinkFor()).write(entries, prune)
  }
}
