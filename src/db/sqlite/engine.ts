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
 *   One fsync then serves a whole group (synchronous=FULL keeps every commit durable).
 * - Prepared statements are cached (see statements.ts for the values they bind and return).
 *
 * Callers take `mutex` around each use (the Kysely driver in ../dialects/sqlite.ts does).
 */

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
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

  constructor(db: DatabaseSync) {
    this.#db = db
    this.#statements = new StatementCache(db)
  }

  execute(sqlText: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const statement = this.#statements.get(sqlText)
    const result = statement.run(parameters)
    if (!statement.readOnly) this.#afterWrite()
    return result
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
      for (const w of waiters) w.resolve()
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
    this.#db.close()
  }

  /**
   * A write outside any transaction joined the open group: commit now, so that it is durable
   * before its caller hears back.
   */
  #afterWrite(): void {
    if (this.#open && !this.#inSavepoint) this.flush()
  }

  #scheduleFlush(): void {
    if (this.#flushScheduled) return
    this.#flushScheduled = true
    setImmediate(() => {
      void this.mutex.lock().then(() => {
        try {
          this.flush()
        } finally {
          this.mutex.unlock()
        }
      })
    })
  }
}

/** Opens a database file (or `:memory:`) in the configuration every cloudplane process uses. */
export function openSqlite(filename: string): SqliteEngine {
  // Double-quoted strings are identifiers only, as in PostgreSQL (node:sqlite's default, stated).
  const db = new DatabaseSync(filename, { enableDoubleQuotedStringLiterals: false })
  if (filename !== ':memory:') db.exec('pragma journal_mode = WAL')
  // Durable commits: an acknowledged write survives power loss, not only a process crash.
  db.exec('pragma synchronous = FULL')
  db.exec('pragma busy_timeout = 5000')
  db.exec('pragma foreign_keys = ON')
  // A 16 MB page cache (SQLite's compiled-in default here is 2 MB).
  db.exec('pragma cache_size = -16000')
  return new SqliteEngine(db)
}
