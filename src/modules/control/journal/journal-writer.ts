import { Worker } from 'node:worker_threads'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type { Clock } from '../../../common/time.ts'
import { type Db, sqliteEngineOf } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import { addJournalDropped, insertJournalPayload, pruneJournal } from './journal.repository.ts'
import type { JournalBatch, JournalPayload, JournalReply } from './journal.worker.ts'
import { ChunkWriter, type EncodedChunk, readChunk } from './journal-chunks.ts'
import { bodiesPayload, journalPayload, journalRows, type PendingEntry } from './journal-rows.ts'

export type { PendingEntry } from './journal-rows.ts'

export interface JournalLimits {
  /** Entries kept (the newest); the ring is trimmed each tenth of this. */
  maxEntries: number
  /** Entries older than this (by the virtual clock) are dropped. */
  maxAgeMs: number
  /** How often the buffer is written. */
  flushMs: number
  /**
   * Entries held at most while a write is in progress. Past this a request is not held up: its
   * entry is dropped and counted, and the listing says how many were (`dropped`).
   */
  maxBuffered: number
}

export const DEFAULT_JOURNAL_LIMITS: JournalLimits = {
  maxEntries: 10_000,
  maxAgeMs: 24 * 3600_000,
  flushMs: 100,
  maxBuffered: 20_000,
}

/**
 * Entries buffered before a write is started without waiting for the timer. Small batches, often:
 * an entry held long outlives the young generation and costs the main thread's collector more.
 */
const FLUSH_AT = 500

/** The worker's file, as `.ts` when run from source and `.js` once built. */
const WORKER_URL = new URL(
  `./journal.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

interface Sink {
  write(chunks: EncodedChunk[], prune: JournalBatch['prune'], dropped: number): Promise<void>
  close(): Promise<void>
}

/** Stores one batch from this thread: its rows and bodies as JSON texts, with the drops; then the trim. */
async function storeBatch(
  db: Db,
  payload: JournalPayload | undefined,
  prune: JournalBatch['prune'],
  dropped: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    if (payload !== undefined) await insertJournalPayload(trx, payload)
    if (dropped > 0) await addJournalDropped(trx, dropped)
  })
  if (prune) await pruneJournal(db, prune)
}

/** Everything on this thread (in-memory SQLite, which no other thread can open: tests). */
function directSink(db: Db, processId: string): Sink {
  return {
    async write(chunks, prune, dropped) {
      const { rows, bodies } = journalRows(chunks.flatMap(readChunk), processId)
      const payload =
        rows.length === 0 ? undefined : { rows: journalPayload(rows), bodies: bodiesPayload(bodies) }
      await storeBatch(db, payload, prune, dropped)
    },
    async close() {},
  }
}

/**
 * A worker thread (journal.worker.ts) redacts and serialises each batch. Given a SQLite file it
 * writes the batch too, on its own connection; otherwise (PostgreSQL) it hands back the batch as
 * JSON texts (rows, bodies), which this thread sends to the database (the driver waits without
 * working).
 */
function workerSink(db: Db, filename: string | undefined, processId: string): Sink {
  const worker = new Worker(WORKER_URL, { workerData: { filename, processId } })
  worker.unref()
  const pending = new Map<
    number,
    { resolve: (payload?: JournalPayload) => void; reject: (error: Error) => void }
  >()
  let next = 1
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  worker.on('message', (reply: JournalReply) => {
    const waiter = pending.get(reply.id)
    pending.delete(reply.id)
    if (reply.error === undefined) waiter?.resolve(reply.payload)
    else waiter?.reject(new Error(reply.error))
  })
  worker.on('error', failAll)
  worker.on('exit', () => failAll(new Error('the journal worker stopped')))
  return {
    async write(chunks, prune, dropped) {
      const id = next++
      const payload = await new Promise<JournalPayload | undefined>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        // The chunks' bytes are handed over, not copied.
        worker.postMessage(
          { id, chunks, dropped, ...(prune && { prune }) } satisfies JournalBatch,
          chunks.map((c) => c.buffer),
        )
      })
      if (filename === undefined) await storeBatch(db, payload, prune, dropped)
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
 * Writes journal entries off the hot path: a request only appends to a bounded buffer (dropping
 * and counting when it is full, never waiting); a timer hands the buffer to the sink (a worker
 * thread), which redacts and serialises it and writes it in a few short transactions, and trims
 * the ring now and then.
 */
export class JournalWriter {
  readonly #db: Db
  readonly #clock: Clock
  readonly #log: FastifyBaseLogger
  readonly #limits: JournalLimits
  readonly #process = String(process.pid)
  #sink: Promise<Sink> | undefined
  #buffer = new ChunkWriter()
  /** Entries in the buffer. */
  #buffered = 0
  #timer: NodeJS.Timeout | undefined
  #writing: Promise<void> = Promise.resolve()
  /** The batch that starts when the write in progress ends, if one is due. */
  #queued: Promise<void> | undefined
  /** Rows written since the ring was last trimmed: trimming every write would cost more than writing. */
  #sincePrune = 0
  /**
   * Rows written since the bodies no entry names were last removed: once a ring's worth (that
   * takes a pass over the whole ring), so a body outlives its last entry by a ring at most.
   */
  #sincePruneBodies = 0
  /** Entries dropped (the buffer was full) and not yet counted in the database. */
  #dropped = 0

  constructor(db: Db, clock: Clock, log: FastifyBaseLogger, limits: Partial<JournalLimits> = {}) {
    this.#db = db
    this.#clock = clock
    this.#log = log
    this.#limits = { ...DEFAULT_JOURNAL_LIMITS, ...limits }
  }

  push(entry: PendingEntry): void {
    if (this.#buffered >= this.#limits.maxBuffered) {
      this.#dropped++
      return
    }
    this.#buffer.add(entry)
    this.#buffered++
    if (this.#buffered >= FLUSH_AT) void this.flush()
    else if (this.#timer === undefined) {
      this.#timer = setTimeout(() => void this.flush(), this.#limits.flushMs)
      this.#timer.unref()
    }
  }

  /**
   * Writes what is buffered; resolves once it (and any write before it) is in the database. One
   * write at a time: entries that arrive meanwhile wait in the (bounded) buffer and go in the next
   * batch, so a slow disk shows as drops, never as memory without end.
   */
  flush(): Promise<void> {
    if (this.#timer !== undefined) {
      clearTimeout(this.#timer)
      this.#timer = undefined
    }
    // A batch already waits for the write in progress: it will take these entries too.
    if (this.#queued !== undefined) return this.#queued
    const next = this.#writing
      .then(() => {
        this.#queued = undefined
        const count = this.#buffered
        const chunks = this.#buffer.take()
        const dropped = this.#dropped
        this.#buffered = 0
        this.#dropped = 0
        return count === 0 && dropped === 0 ? undefined : this.#write(chunks, count, dropped)
      })
      .catch((err) => this.#log.warn({ err }, 'journal write failed'))
    this.#queued = next
    this.#writing = next
    return next
  }

  /** Writes what is left and stops the worker. */
  async close(): Promise<void> {
    await this.flush()
    if (this.#sink !== undefined) await (await this.#sink).close()
  }

  #sinkFor(): Promise<Sink> {
    this.#sink ??= sqliteFile(this.#db).then((file) => {
      if (file !== undefined) return workerSink(this.#db, file, this.#process)
      return sqliteEngineOf(this.#db) === undefined
        ? workerSink(this.#db, undefined, this.#process)
        : directSink(this.#db, this.#process)
    })
    return this.#sink
  }

  async #write(chunks: EncodedChunk[], count: number, dropped: number): Promise<void> {
    const { maxEntries, maxAgeMs } = this.#limits
    this.#sincePrune += count
    this.#sincePruneBodies += count
    const due = this.#sincePrune >= Math.max(1, maxEntries / 10)
    const bodies = due && this.#sincePruneBodies >= maxEntries
    if (due) this.#sincePrune = 0
    if (bodies) this.#sincePruneBodies = 0
    const prune = due ? { maxEntries, oldestMs: this.#clock.now().getTime() - maxAgeMs, bodies } : undefined
    await (await this.#sinkFor()).write(chunks, prune, dropped)
  }
}
