import { DatabaseSync, type StatementSync } from 'node:sqlite'
import { parentPort, workerData } from 'node:worker_threads'
import type pg from 'pg'
import { BatchEncoder } from './journal-batch-text.ts'
import type { EncodedChunk } from './journal-chunks.ts'
import { bodiesPayload, type JournalBatchRow } from './journal-rows.ts'
import {
  addDroppedSql,
  BODIES_LOCK,
  INSERT_BATCH_SQL,
  numbered,
  POSTGRES_BATCH_SQL,
  PRUNE_SQL,
  pruneBodiesSql,
  reserveIdsSql,
} from './journal-sql.ts'

/**
 * The journal's thread: redacts and serialises each batch, each distinct body once, and writes it
 * as one row (with its bodies) on a connection of its own, so that none of this holds up a
 * request, the driver's work on PostgreSQL included. A SQLite file's connection does not wait for
 * the disk on commit (synchronous=NORMAL): a journal may lose its last entries in a power cut,
 * never the state's data, which the server's own connection keeps durable. Not OFF: a checkpoint
 * run by this connection copies the server's transactions too, and must reach the disk before the
 * write-ahead log starts over. (PostgreSQL's journal tables are unlogged, to the same end.)
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

export interface JournalReply {
  id: number
  error?: string
  /** The batch's chunks, handed back (transferred) for the writer to fill again. */
  buffers: ArrayBuffer[]
}

/** Where the thread writes: a SQLite file, or a PostgreSQL database (the pool's own settings). */
export type JournalTarget =
  | { kind: 'sqlite'; filename: string }
  | {
      kind: 'postgres'
      config: Pick<pg.ClientConfig, 'connectionString' | 'options' | 'fallback_application_name'>
    }

interface Store {
  /** `bodies`: digest to redacted text. */
  write(
    batch: JournalBatch,
    row: JournalBatchRow | undefined,
    bodies: Map<string, string>,
  ): void | Promise<void>
}

function sqliteStore(file: string): Store {
  const db = new DatabaseSync(file)
  db.exec('pragma busy_timeout = 5000')
  db.exec('pragma synchronous = NORMAL')
  const s = {
    reserveIds: db.prepare(reserveIdsSql('integer')),
    // One row per batch: the engine's cost per entry is then a share of one row's text.
    insertBatch: db.prepare(INSERT_BATCH_SQL),
    insertBody: db.prepare(
      'insert into control_journal_bodies (digest, body) values (?, ?) on conflict (digest) do nothing',
    ),
    addDropped: db.prepare(addDroppedSql('integer')),
    prune: db.prepare(PRUNE_SQL),
    pruneBodies: db.prepare(pruneBodiesSql(false)),
  } satisfies Record<string, StatementSync>
  const inTransaction = (work: () => void) => {
    db.exec('begin immediate')
    try {
      work()
      db.exec('commit')
    } catch (error) {
      db.exec('rollback')
      throw error
    }
  }
  return {
    write(batch, row, bodies) {
      // The batch with its bodies and its drops in one short transaction (the server's own
      // connection waits for the write lock meanwhile): a trim by another process in between
      // removes only bodies that no stored entry names.
      inTransaction(() => {
        if (row !== undefined) {
          for (const [digest, text] of bodies) s.insertBody.run(digest, text)
          const { value } = s.reserveIds.get(String(row.entries)) as { value: string }
          const { entries, process, lastAtMs, lastRealMs, rows, digests } = row
          s.insertBatch.run(
            Number(value) - entries + 1,
            entries,
            process,
            lastAtMs,
            lastRealMs,
            rows,
            digests,
          )
        }
        if (batch.dropped > 0) s.addDropped.run(String(batch.dropped))
      })
      if (batch.prune) {
        const { oldestMs, maxEntries, bodies: withBodies } = batch.prune
        try {
          inTransaction(() => {
            s.prune.run(oldestMs, maxEntries)
            if (withBodies) s.pruneBodies.run()
          })
        } catch {
          // A trim that fails (a lock waited for too long, a lost connection) is not the batch's
          // failure: the batch is stored, and the next trim due takes what this one left.
        }
      }
    },
  }
}

/** One connection, opened on the first batch and again after it is lost (that batch fails). */
function postgresStore(config: pg.ClientConfig): Store {
  let client: Promise<pg.Client> | undefined
  const connect = () => {
    client ??= import('pg').then(async ({ default: driver }) => {
      const c = new driver.Client(config)
      const lose = () => {
        client = undefined
      }
      c.on('error', lose)
      c.on('end', lose)
      await c.connect().catch((error) => {
        lose()
        throw error
      })
      return c
    })
    return client
  }
  // Named: each statement is parsed and planned once per connection, not at every batch.
  const query = async (name: string, text: string, values?: unknown[]) => {
    const c = await connect()
    return c.query({ name, text, values })
  }
  const [prune, pruneBodies] = [PRUNE_SQL, pruneBodiesSql(true)].map(numbered) as [string, string]
  const trim = async ({ oldestMs, maxEntries, bodies: withBodies }: NonNullable<JournalBatch['prune']>) => {
    await query('journal_prune', prune, [oldestMs, maxEntries])
    if (!withBodies) return
    const c = await connect()
    await c.query('begin')
    try {
      await c.query('select pg_advisory_xact_lock($1)', [BODIES_LOCK])
      await c.query(pruneBodies)
      await c.query('commit')
    } catch (error) {
      await c.query('rollback').catch(() => c.end().catch(() => {}))
      throw error
    }
  }
  return {
    async write(batch, row, bodies) {
      // One statement, one round trip (the driver's cost is per statement, not per byte).
      if (row !== undefined || batch.dropped > 0) {
        const { entries, process, lastAtMs, lastRealMs, rows, digests } = row ?? EMPTY
        await query('journal_batch', POSTGRES_BATCH_SQL, [
          bodiesPayload(bodies),
          entries,
          process,
          lastAtMs,
          lastRealMs,
          rows,
          digests,
          batch.dropped,
        ])
      }
      // As on SQLite: a failed trim is left to the next one due.
      if (batch.prune) await trim(batch.prune).catch(() => {})
    },
  }
}

/** No entries (a batch of drops alone). */
const EMPTY: JournalBatchRow = {
  process: '',
  entries: 0,
  lastAtMs: 0,
  lastRealMs: 0,
  rows: '[]',
  digests: '[]',
}

const { target, processId } = workerData as { target: JournalTarget; processId: string }
const store = target.kind === 'sqlite' ? sqliteStore(target.filename) : postgresStore(target.config)

const encoder = new BatchEncoder()

// One batch at a time: the writer sends the next only once this one is answered.
parentPort?.on('message', async (batch: JournalBatch) => {
  let reply: JournalReply
  try {
    const { row, bodies } = encoder.encode(batch.chunks, processId)
    await store.write(batch, row, bodies)
    reply = { id: batch.id, buffers: [] }
  } catch (error) {
    reply = { id: batch.id, error: (error as Error).message, buffers: [] }
  }
  reply.buffers = batch.chunks.map((c) => c.buffer)
  parentPort?.postMessage(reply, reply.buffers)
})
