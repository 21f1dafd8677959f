import { closeSync, fdatasync, fdatasyncSync, fsyncSync, openSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { DatabaseSync, type StatementSync } from 'node:sqlite'
import type { QueryResult } from 'kysely'
import { Mutex } from './mutex.ts'
import { StatementCache } from './statements.ts'

/**
 * One SQLite connection (Node's built-in `node:sqlite`) shared by the whole process, with what
 * Kysely's own SQLite dialect does not do:
 *
 * - Write transactions start with BEGIN IMMEDIATE, so two processes on one file queue on the write
 *   lock instead of failing with SQLITE_BUSY half-way through a transaction.
 * - Group commit: concurrent transactions of this process run as savepoints inside one outer
 *   transaction, and each caller is answered only after the COMMIT that made its work durable.
 * - Durable without holding the thread (a database file): the COMMIT only writes the write-ahead
 *   log (synchronous=NORMAL), and the log is then flushed to the disk on libuv's thread pool
 *   (`WalSync`), one flush for every commit made while the one before it ran. Callers are
 *   answered after that flush, as synchronous=FULL would answer them after its own; meanwhile the
 *   thread serves other requests, and builds the next group.
 * - Prepared statements are cached (see statements.ts for the values they bind and return).
 *
 * Callers take `mutex` around each use (the Kysely driver in ../dialects/sqlite.ts does).
 */

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

/** Flushes a file's data to the disk (fdatasync); the callback hears how it went. */
export type SyncFile = (fd: number, done: (error: Error | null) => void) => void

/**
 * Flushes the write-ahead log after COMMITs made with synchronous=NORMAL, off the event loop.
 * A waiter is answered by a flush that started after its COMMIT returned (its frames were in the
 * log file by then), so what it was told is committed is on the disk. Flushes do not overlap:
 * the commits made while one runs share the next. SQLite itself still syncs around checkpoints
 * (the log before it is copied, the database after) and the log's header when it starts over, so
 * nothing acknowledged depends on frames that a restart of the log overwrites.
 */
class WalSync {
  readonly #path: string
  readonly #syncFile: SyncFile
  #fd: number | undefined
  #running = false
  #closing = false
  #queued: Waiter[] = []
  /**
   * A failed flush: after one, the kernel may have dropped the pages it could not write, and a
   * later flush succeeding proves nothing about them, so every later commit is refused with it
   * (a restart recovers from what is on the disk).
   */
  #failed: unknown
  /** Waiting for the flush under way to end (`whenIdle`). */
  #idle: Array<() => void> = []

  constructor(path: string, syncFile: SyncFile) {
    this.#path = path
    this.#syncFile = syncFile
  }

  /** Answers `waiters` once a flush that starts after this call has completed. */
  after(waiters: Waiter[]): void {
    if (this.#failed !== undefined) {
      for (const w of waiters) w.reject(this.#failed)
      return
    }
    for (const w of waiters) this.#queued.push(w)
    if (!this.#running) this.#start()
  }

  /** One flush now, on this thread, answering everyone waiting (closing the database). */
  syncNow(): void {
    const batch = this.#queued
    this.#queued = []
    if (batch.length === 0 || this.#failed !== undefined) return
    try {
      fdatasyncSync(this.#open())
      for (const w of batch) w.resolve()
    } catch (error) {
      this.#failed = error
      for (const w of batch) w.reject(error)
    }
  }

  /** Calls `then` once no flush is under way (at once when none is). */
  whenIdle(then: () => void): void {
    if (this.#running) this.#idle.push(then)
    else then()
  }

  /** Closes the log's descriptor once no flush uses it. */
  close(): void {
    this.#closing = true
    if (!this.#running) this.#closeFd()
  }

  #start(): void {
    const batch = this.#queued
    if (batch.length === 0) return
    this.#queued = []
    let fd: number
    try {
      fd = this.#open()
    } catch (error) {
      for (const w of batch) w.reject(error)
      return
    }
    this.#running = true
    this.#syncFile(fd, (error) => {
      this.#running = false
      if (error !== null) this.#failed ??= error
      for (const w of batch) {
        if (this.#failed === undefined) w.resolve()
        else w.reject(this.#failed)
      }
      if (this.#closing) this.#closeFd()
      else if (this.#failed !== undefined) for (const w of this.#queued.splice(0)) w.reject(this.#failed)
      else this.#start()
      if (!this.#running) for (const then of this.#idle.splice(0)) then()
    })
  }

  /**
   * The log's descriptor, opened at the first flush (SQLite creates the log with the first
   * transaction). The log is removed only when the last connection closes, and this process's
   * stays open, so it is the same file for the life of the engine. The directory is synced once,
   * so that the log's own entry is on the disk too.
   */
  #open(): number {
    if (this.#fd === undefined) {
      this.#fd = openSync(this.#path, 'r+')
      const dir = openSync(dirname(this.#path), 'r')
      try {
        fsyncSync(dir)
      } finally {
        closeSync(dir)
      }
    }
    return this.#fd
  }

  #closeFd(): void {
    if (this.#fd === undefined) return
    closeSync(this.#fd)
    this.#fd = undefined
  }
}

export class SqliteEngine {
  readonly mutex = new Mutex()
  readonly #db: DatabaseSync
  readonly #statements: StatementCache
  #open = false
  #inSavepoint = false
  #waiters: Waiter[] = []
  #flushScheduled = false
  /** COMMITs issued so far: with group commit, fewer than the transactions committed. */
  commits = 0
  #counter: StatementSync | undefined
  #counters: StatementSync | undefined
  /** Set where commits leave the disk flush to us (a database file); else every commit syncs. */
  readonly #wal: WalSync | undefined
  /** The last `execute` was a write committed on its own, not yet known to be on the disk. */
  #unsyncedWrite = false

  constructor(db: DatabaseSync, wal?: WalSync) {
    this.#db = db
    this.#statements = new StatementCache(db)
    this.#wal = wal
  }

  execute(sqlText: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const statement = this.#statements.get(sqlText)
    this.#unsyncedWrite = false
    const result = statement.run(parameters)
    if (!statement.readOnly) this.#afterWrite()
    return result
  }

  /**
   * After `execute`: when it ran a write outside any transaction (committed on its own, or with
   * the open group), a promise that settles once that write is on the disk; its caller answers
   * only then. Undefined when there is nothing to wait for.
   */
  writeDurable(): Promise<void> | undefined {
    if (!this.#unsyncedWrite || this.#wal === undefined) return undefined
    this.#unsyncedWrite = false
    const wal = this.#wal
    return new Promise<void>((resolve, reject) => wal.after([{ resolve, reject }]))
  }

  begin(): void {
    if (!this.#open) {
      this.#db.exec('begin immediate')
      this.#open = true
    }
    this.#db.exec('savepoint cloudplane_tx')
    this.#inSavepoint = true
  }

  /** Ends the caller's savepoint; the promise settles when the group's COMMIT has happened. */
  commit(): Promise<void> {
    this.#db.exec('release cloudplane_tx')
    this.#inSavepoint = false
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }))
    this.#scheduleFlush()
    return done
  }

  rollback(): void {
    this.#db.exec('rollback to cloudplane_tx')
    this.#db.exec('release cloudplane_tx')
    this.#inSavepoint = false
    this.#scheduleFlush()
  }

  /** Commits the open group now. Only called while holding the mutex, outside any savepoint. */
  flush(): void {
    this.#flushScheduled = false
    if (!this.#open || this.#inSavepoint) return
    const waiters = this.#waiters
    this.#waiters = []
    try {
      this.#db.exec('commit')
      this.commits++
      this.#open = false
      if (this.#wal !== undefined) this.#wal.after(waiters)
      else for (const w of waiters) w.resolve()
    } catch (error) {
      this.#open = false
      if (this.#db.isTransaction) this.#db.exec('rollback')
      for (const w of waiters) w.reject(error)
    }
  }

  /**
   * Runs a read-only statement at once when nobody holds the connection: a synchronous call
   * cannot interleave with anyone else's transaction, and it spares the hot reads the promise
   * hops of a queued acquisition. Returns undefined when the connection is busy (queue instead).
   */
  readNow(sqlText: string, parameters: readonly unknown[]): QueryResult<unknown> | undefined {
    if (this.mutex.locked) return undefined
    return this.execute(sqlText, parameters)
  }

  /**
   * The value of a named counter in the `change_counters` table, or undefined if there is no such
   * counter. Triggers move a counter on the changes it stands for, made by any process, so a cache
   * of what those changes affect stays valid while its counter stays put. (A plain read of one
   * row: `pragma data_version` would force every other statement of the connection to be
   * prepared again.)
   */
  changeCounter(name: string): number | undefined {
    if (this.#counter === undefined) {
      this.#counter = this.#db.prepare('select value from change_counters where name = ?')
      this.#counter.setReturnArrays(true)
    }
    const row = this.#counter.get(name) as unknown as [number] | undefined
    return row?.[0]
  }

  /** Every change counter by name, in one read (one statement costs about as much as one row). */
  changeCounters(): Map<string, number> {
    if (this.#counters === undefined) {
      this.#counters = this.#db.prepare('select name, value from change_counters')
      this.#counters.setReturnArrays(true)
    }
    const values = new Map<string, number>()
    for (const [name, value] of this.#counters.all() as unknown as Array<[string, number]>) {
      values.set(name, value)
    }
    return values
  }

  close(): void {
    this.flush()
    this.#wal?.syncNow()
    this.#wal?.close()
    this.#db.close()
  }

  /**
   * A write outside any transaction joined the open group: commit now, so that it is durable
   * before its caller hears back (see `writeDurable`).
   */
  #afterWrite(): void {
    if (this.#inSavepoint) return
    if (this.#open) this.flush()
    this.#unsyncedWrite = true
  }

  /**
   * Commits the group soon: after the current turn (so that the transactions of the same turn
   * join it), and, while the log is being flushed, once that flush is done. A commit made during
   * the flush would wait for it anyway before its own could start; kept open meanwhile, the group
   * gathers every transaction of that time into one COMMIT, writing the pages they share once.
   */
  #scheduleFlush(): void {
    if (this.#flushScheduled) return
    this.#flushScheduled = true
    setImmediate(() => {
      if (this.#wal === undefined) this.#flushWhenFree()
      else this.#wal.whenIdle(() => this.#flushWhenFree())
    })
  }

  #flushWhenFree(): void {
    void this.mutex.lock().then(() => {
      try {
        this.flush()
      } finally {
        this.mutex.unlock()
      }
    })
  }
}

export interface SqliteOptions {
  /** How the write-ahead log is flushed after a commit (tests hold it back); fdatasync by default. */
  syncFile?: SyncFile
}

/** Opens a database file (or `:memory:`) in the configuration every cloudplane process uses. */
export function openSqlite(filename: string, options: SqliteOptions = {}): SqliteEngine {
  // Double-quoted strings are identifiers only, as in PostgreSQL (node:sqlite's default, stated).
  const db = new DatabaseSync(filename, { enableDoubleQuotedStringLiterals: false })
  const mode =
    filename === ':memory:'
      ? undefined
      : (db.prepare('pragma journal_mode = WAL').get() as { journal_mode: string } | undefined)?.journal_mode
  // Durable commits: an acknowledged write survives power loss, not only a process crash. On a
  // plain file in WAL mode the engine flushes the log itself after COMMIT (see WalSync); a URI,
  // or a file that could not switch to WAL, syncs in the COMMIT (FULL).
  const ownSync = mode === 'wal' && !filename.startsWith('file:')
  db.exec(`pragma synchronous = ${ownSync ? 'NORMAL' : 'FULL'}`)
  db.exec('pragma busy_timeout = 5000')
  db.exec('pragma foreign_keys = ON')
  // A 16 MB page cache (SQLite's compiled-in default here is 2 MB).
  db.exec('pragma cache_size = -16000')
  // Temporary files in memory, above all the savepoints' sub-journals: a group's savepoint keeps
  // the pages it changes there, and past 64 KiB (a subnet write with its event and tallies) SQLite
  // spilled them to a new temporary file per transaction (open, write, unlink, close).
  db.exec('pragma temp_store = memory')
  const sync = options.syncFile ?? fdatasync
  return new SqliteEngine(db, ownSync ? new WalSync(`${resolve(filename)}-wal`, sync) : undefined)
}
