import { Worker } from 'node:worker_threads'
import type { FastifyBaseLogger } from 'fastify'
import { sql } from 'kysely'
import type pg from 'pg'
import type { Clock } from '../../../common/time.ts'
import { type Db, postgresPoolOf, sqliteEngineOf } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import { addJournalDropped, insertJournalBatch, pruneJournal } from './journal.repository.ts'
import type { JournalBatch, JournalReply, JournalTarget } from './journal.worker.ts'
import { BatchEncoder } from './journal-batch-text.ts'
import { ChunkWriter, type EncodedChunk } from './journal-chunks.ts'
import { bodiesPayload, type PendingEntry } from './journal-rows.ts'

export type { PendingEntry } from './journal-rows.ts'

export interface JournalLimits {
  /** Entries kept (the newest, by whole batches); the ring is trimmed each tenth of this. */
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

type Recycle = (buffers: ArrayBuffer[]) => void

interface Sink {
  /** Writes the chunks; their buffers go back to the writer (`Recycle`) once read. */
  write(chunks: EncodedChunk[], prune: JournalBatch['prune'], dropped: number): Promise<void>
  close(): Promise<void>
}

/** Everything on this thread (in-memory SQLite, which no other thread can open: tests). */
function directSink(db: Db, processId: string, recycle: Recycle): Sink {
  const encoder = new BatchEncoder()
  return {
    async write(chunks, prune, dropped) {
      const { row, bodies } = encoder.encode(chunks, processId)
      recycle(chunks.map((c) => c.buffer))
      await inTransaction(db, async (trx) => {
        if (row !== undefined) await insertJournalBatch(trx, { batch: row, bodies: bodiesPayload(bodies) })
        if (dropped > 0) await addJournalDropped(trx, dropped)
      })
      // A failed trim is not the batch's failure: the next one due takes what it left.
      if (prune) await pruneJournal(db, prune).catch(() => {})
    },
    async close() {},
  }
}

/**
 * A worker thread (journal.worker.ts) redacts, serialises and writes each batch, on a connection
 * of its own: the SQLite file, or the PostgreSQL database with the pool's settings.
 */
function workerSink(target: JournalTarget, processId: string, recycle: Recycle): Sink {
  const worker = new Worker(WORKER_URL, { workerData: { target, processId } })
  worker.unref()
  const pending = new Map<number, { resolve: () => void; reject: (error: Error) => void }>()
  let next = 1
  const failAll = (error: Error) => {
    for (const p of pending.values()) p.reject(error)
    pending.clear()
  }
  worker.on('message', (reply: JournalReply) => {
    recycle(reply.buffers)
    const waiter = pending.get(reply.id)
    pending.delete(reply.id)
    if (reply.error === undefined) waiter?.resolve()
    else waiter?.reject(new Error(reply.error))
  })
  worker.on('error', failAll)
  worker.on('exit', () => failAll(new Error('the journal worker stopped')))
  return {
    write(chunks, prune, dropped) {
      const id = next++
      return new Promise<void>((resolve, reject) => {
        pending.set(id, { resolve, reject })
        // The chunks' bytes are handed over, not copied.
        worker.postMessage(
          { id, chunks, dropped, ...(prune && { prune }) } satisfies JournalBatch,
          chunks.map((c) => c.buffer),
        )
      })
    },
    async close() {
      await worker.terminate()
    },
  }
}

/** Where a worker can write what `db` holds: its SQLite file, or its PostgreSQL database. */
async function targetOf(db: Db): Promise<JournalTarget | undefined> {
  const pool = postgresPoolOf(db)
  if (pool !== undefined) {
    const { connectionString, options, fallback_application_name } = pool.options as pg.ClientConfig
    return { kind: 'postgres', config: { connectionString, options, fallback_application_name } }
  }
  if (sqliteEngineOf(db) === undefined) return undefined
  const rows = await sql<{ name: string; file: string }>`pragma database_list`.execute(db)
  const main = rows.rows.find((r) => r.name === 'main')?.file
  return main === undefined || main === '' ? undefined : { kind: 'sqlite', filename: main }
}

/**
 * Writes journal entries off the hot path: a request only appends to a bounded buffer (dropping
 * and counting when it is full, never waiting); a timer hands the buffer to the sink (a worker
 * thread), which redacts and serialises it and writes it as one row in a short transaction, and
 * trims the ring now and then.
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
    const next = this.#writing.then(async () => {
      this.#queued = undefined
      const count = this.#buffered
      const chunks = this.#buffer.take()
      const dropped = this.#dropped
      this.#buffered = 0
      this.#dropped = 0
      if (count === 0 && dropped === 0) return
      try {
        await this.#write(chunks, count, dropped)
      } catch (err) {
        // The batch is lost: its entries are counted as dropped, so the listing says so.
        this.#dropped += count + dropped
        this.#log.warn({ err }, 'journal write failed')
      }
    })
    this.#queued = next
    this.#writing = next
    return next
  }

  /** Writes what is left and stops the worker. */
  async close(): Promise<void> {
    await this.flush()
    if (this.#sink !== undefined) await (await this.#sink).close()
  }

  readonly #recycle: Recycle = (buffers) => this.#buffer.recycle(buffers)

  #sinkFor(): Promise<Sink> {
    this.#sink ??= targetOf(this.#db).then((target) =>
      target === undefined
        ? directSink(this.#db, this.#process, this.#recycle)
        : workerSink(target, this.#process, this.#recycle),
    )
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
