import BetterSqlite3 from 'better-sqlite3'
import {
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely'

/**
 * SQLite for Kysely over better-sqlite3, with three things Kysely's own dialect does not do:
 *
 * - Write transactions start with BEGIN IMMEDIATE, so two processes on one file queue on the write
 *   lock instead of failing with SQLITE_BUSY half-way through a transaction.
 * - Group commit: concurrent transactions of this process run as savepoints inside one outer
 *   transaction, and each caller is answered only after the COMMIT that made its work durable.
 *   One fsync then serves a whole group (synchronous=FULL keeps every commit durable).
 * - Prepared statements are cached, booleans are bound as 0/1 and columns declared `boolean` come
 *   back as JS booleans, so both engines return the same JS types.
 */

class Mutex {
  #locked = false
  readonly #queue: Array<() => void> = []

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#queue.push(resolve))
  }

  unlock(): void {
    const next = this.#queue.shift()
    if (next) next()
    else this.#locked = false
  }

  get locked(): boolean {
    return this.#locked
  }
}

interface CachedStatement {
  statement: BetterSqlite3.Statement
  reader: boolean
  readonly: boolean
  booleanColumns: string[]
}

interface Waiter {
  resolve: () => void
  reject: (error: unknown) => void
}

const STATEMENT_CACHE_SIZE = 1000

export class SqliteEngine {
  readonly db: BetterSqlite3.Database
  readonly mutex = new Mutex()
  readonly #statements = new Map<string, CachedStatement>()
  #open = false
  #inSavepoint = false
  #waiters: Waiter[] = []
  #flushScheduled = false
  /** COMMITs issued so far: with group commit, fewer than the transactions committed. */
  commits = 0
  #authGeneration: BetterSqlite3.Statement | undefined

  constructor(db: BetterSqlite3.Database) {
    this.db = db
  }

  execute(sqlText: string, parameters: readonly unknown[]): QueryResult<unknown> {
    const cached = this.#prepare(sqlText)
    const params = parameters.map(bindable)
    if (cached.reader) {
      const rows = cached.statement.all(params) as Record<string, unknown>[]
      if (cached.booleanColumns.length > 0) {
        for (const row of rows) {
          for (const column of cached.booleanColumns) {
            const value = row[column]
            if (typeof value === 'number') row[column] = value !== 0
          }
        }
      }
      if (!cached.readonly) this.#afterWrite()
      return { rows }
    }
    const { changes, lastInsertRowid } = cached.statement.run(params)
    if (!cached.readonly) this.#afterWrite()
    return {
      rows: [],
      numAffectedRows: BigInt(changes),
      insertId: lastInsertRowid === undefined ? undefined : BigInt(lastInsertRowid),
    }
  }

  begin(): void {
    if (!this.#open) {
      this.db.exec('begin immediate')
      this.#open = true
    }
    this.db.exec('savepoint cloudplane_tx')
    this.#inSavepoint = true
  }

  /** Ends the caller's savepoint; the promise settles when the group's COMMIT has happened. */
  commit(): Promise<void> {
    this.db.exec('release cloudplane_tx')
    this.#inSavepoint = false
    const done = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }))
    this.#scheduleFlush()
    return done
  }

  rollback(): void {
    this.db.exec('rollback to cloudplane_tx')
    this.db.exec('release cloudplane_tx')
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
      this.db.exec('commit')
      this.commits++
      this.#open = false
      for (const w of waiters) w.resolve()
    } catch (error) {
      this.#open = false
      if (this.db.inTransaction) this.db.exec('rollback')
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
   * The `auth` change counter, which triggers bump on every change to tokens, users, authorized
   * apps and accounts, by any process. A cache of token lookups is valid while it stays put.
   * (A plain read of one row: `pragma data_version` would force every other statement of the
   * connection to be prepared again.)
   */
  authGeneration(): number | undefined {
    this.#authGeneration ??= this.db.prepare("select value from change_counters where name = 'auth'").pluck()
    return this.#authGeneration.get() as number | undefined
  }

  close(): void {
    this.flush()
    this.db.close()
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

  #prepare(sqlText: string): CachedStatement {
    let cached = this.#statements.get(sqlText)
    if (cached) return cached
    const statement = this.db.prepare(sqlText)
    const reader = statement.reader
    cached = {
      statement,
      reader,
      readonly: statement.readonly,
      booleanColumns: reader
        ? statement
            .columns()
            .filter((c) => c.type?.toLowerCase() === 'boolean')
            .map((c) => c.name)
        : [],
    }
    if (this.#statements.size >= STATEMENT_CACHE_SIZE) this.#statements.clear()
    this.#statements.set(sqlText, cached)
    return cached
  }
}

function bindable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0
  return value
}

/** One use of the shared connection, from acquire to release. */
class Lease implements DatabaseConnection {
  readonly engine: SqliteEngine
  released = false

  constructor(engine: SqliteEngine) {
    this.engine = engine
  }

  async executeQuery<R>(compiled: { sql: string; parameters: readonly unknown[] }): Promise<QueryResult<R>> {
    if (!this.released) return this.engine.execute(compiled.sql, compiled.parameters) as QueryResult<R>
    // The lease gave the lock back at commit (group commit); take it again for this query.
    await this.engine.mutex.lock()
    try {
      return this.engine.execute(compiled.sql, compiled.parameters) as QueryResult<R>
    } finally {
      this.engine.mutex.unlock()
    }
  }

  // biome-ignore lint/correctness/useYield: streaming is not used; refuse it clearly
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported')
  }
}

class GroupCommitDriver implements Driver {
  readonly #engine: SqliteEngine
  /**
   * Leases are reused: Kysely remembers every connection object it sees in a WeakSet, and a new
   * object per query fills it with garbage that is expensive to collect.
   */
  readonly #idle: Lease[] = []

  constructor(engine: SqliteEngine) {
    this.#engine = engine
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#engine.mutex.lock()
    const lease = this.#idle.pop() ?? new Lease(this.#engine)
    lease.released = false
    return lease
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    ;(connection as Lease).engine.begin()
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    const durable = this.#engine.commit()
    // Let the next transaction in while this one waits for the group's COMMIT.
    lease.released = true
    this.#engine.mutex.unlock()
    await durable
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    ;(connection as Lease).engine.rollback()
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (!lease.released) {
      lease.released = true
      this.#engine.mutex.unlock()
    }
    this.#idle.push(lease)
  }

  async destroy(): Promise<void> {
    await this.#engine.mutex.lock()
    this.#engine.close()
  }
}

/** Our driver serializes access itself, so Kysely must not add its own mutex on top. */
class GroupCommitSqliteAdapter extends SqliteAdapter {
  override get supportsMultipleConnections(): boolean {
    return true
  }

  /** SQLite DDL is transactional; migrations then run under the write lock, safe across processes. */
  override get supportsTransactionalDdl(): boolean {
    return true
  }
}

export class CloudplaneSqliteDialect implements Dialect {
  readonly engine: SqliteEngine

  constructor(engine: SqliteEngine) {
    this.engine = engine
  }

  createAdapter(): DialectAdapter {
    return new GroupCommitSqliteAdapter()
  }

  createDriver(): Driver {
    return new GroupCommitDriver(this.engine)
  }

  createQueryCompiler(): QueryCompiler {
    return new SqliteQueryCompiler()
  }

  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector signature
  createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new SqliteIntrospector(db)
  }
}

export function openSqlite(filename: string): SqliteEngine {
  const db = new BetterSqlite3(filename)
  if (filename !== ':memory:') db.pragma('journal_mode = WAL')
  // Durable commits: an acknowledged write survives power loss, not only a process crash.
  db.pragma('synchronous = FULL')
  db.pragma('busy_timeout = 5000')
  db.pragma('foreign_keys = ON')
  return new SqliteEngine(db)
}
