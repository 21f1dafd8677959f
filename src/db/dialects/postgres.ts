import {
  type AbortableOperationOptions,
  type CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Driver,
  type Kysely,
  PostgresDialect,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely'
import type pg from 'pg'
import { lazyModule } from '../../startup/lazy-module.ts'
import { CurrentSchemaIntrospector } from './postgres-introspector.ts'

/** The driver, loaded by the first PostgreSQL pool: a server on SQLite never loads it. */
const loadPg = lazyModule<typeof pg>('pg')

/**
 * Type parsing set once for the pool, so PostgreSQL returns what SQLite returns: numbers for
 * bigint ids and counts, and timestamps as the API's own `YYYY-MM-DDTHH:MM:SS` strings.
 */
const INT8 = 20
const NUMERIC = 1700
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

const parseTimestamp = (value: string): string => value.slice(0, 19).replace(' ', 'T')

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value)
    if (oid === TIMESTAMP || oid === TIMESTAMPTZ) return parseTimestamp
    return loadPg().types.getTypeParser(oid, format)
  },
}

export interface PostgresOptions {
  connectionString: string
  /** Schema to use instead of `public` (test runs use one schema each). */
  schema?: string
  max?: number
}

/** What every connection to one database shares, the pool's and the side connections' alike. */
function connectionConfig(options: PostgresOptions): pg.ClientConfig {
  return {
    connectionString: options.connectionString,
    types,
    // Names the connections in pg_stat_activity (a URL's own application_name wins).
    fallback_application_name: 'cloudplane',
    // UTC for the session: `timestamp` columns then hold UTC wall time, whatever the server's zone.
    // No JIT: compiling costs hundreds of milliseconds, more than any of our statements runs, and
    // the planner's estimates for nested counts (the event tallies) cross its threshold.
    // Generic plans always: a statement is planned once per connection (runPrepared names the hot
    // ones), never again for each run's values. The default lets PostgreSQL plan each run once the
    // one plan looks costlier than the plans for values, which it always does for a list at scale
    // (a LIMIT or OFFSET it cannot see counts as a tenth of the rows each, a range of unseen
    // bounds as a two-hundredth): at a million events, every page paid a millisecond of planning
    // for the plan it would have kept. Our statements choose their index by their shape (the
    // filter is in the SQL, see prepared.ts), not by the values in their slots.
    options: `-c TimeZone=UTC -c jit=off -c plan_cache_mode=force_generic_plan${options.schema ? ` -c search_path=${options.schema}` : ''}`,
  }
}

export function createPostgresPool(options: PostgresOptions): pg.Pool {
  const pool = new (loadPg().Pool)({ ...connectionConfig(options), max: options.max ?? 10 })
  // A connection cut by the server (a failover, a restart, pg_terminate_backend) must not crash the
  // process. An idle client's error reaches the pool, which drops it; a checked-out client's
  // error would reach no listener and be thrown: its running query fails on its own (the request
  // answers 503, see connection-loss.ts) and the pool drops the client when it is released.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
  return pool
}

/** A connection outside the pool; `ref`/`unref` are the driver's, missing from its typings. */
export type SideConnection = pg.Client & { ref(): void; unref(): void }

/**
 * One PostgreSQL database as a process uses it: the pool behind Kysely, the side connections kept
 * out of the pool (the change-counter read, the notification listener: see change-counters.ts),
 * closed with the pool, and how many writes this process has completed through Kysely.
 */
export class PostgresDatabase {
  readonly pool: pg.Pool
  readonly #options: PostgresOptions
  readonly #closers = new Set<() => Promise<void>>()
  #closed = false
  /**
   * Completed statements other than plain selects, and commits of transactions that ran one,
   * through Kysely: a cache fed by notifications asks whether this process wrote since its last
   * exact read (its own write's notification may still be on its way).
   */
  writes = 0

  constructor(options: PostgresOptions) {
    this.#options = options
    this.pool = createPostgresPool(options)
  }

  /**
   * A connection of its own, not from the pool, closed when the database is: `onLost` hears of
   * its loss (the server cut it); it is never thrown. It does not keep the process alive while
   * idle (as the pool's idle connections, which time out, do not for long): its user `ref()`s it
   * for a query.
   */
  async sideConnection(onLost: () => void): Promise<SideConnection> {
    if (this.#closed) throw new Error('the database is closed')
    const client = new (loadPg().Client)(connectionConfig(this.#options)) as SideConnection
    const close = async () => {
      await client.end().catch(() => {})
    }
    let lost = false
    const lose = () => {
      if (lost) return
      lost = true
      this.#closers.delete(close)
      onLost()
    }
    client.on('error', lose)
    client.on('end', lose)
    this.#closers.add(close)
    try {
      await client.connect()
    } catch (error) {
      lose()
      await close()
      throw error
    }
    client.unref()
    return client
  }

  /** Closes the side connections (Kysely's driver ends the pool). */
  async closeSideConnections(): Promise<void> {
    this.#closed = true
    const closers = [...this.#closers]
    this.#closers.clear()
    await Promise.all(closers.map((close) => close()))
  }
}

/**
 * Kysely's PostgreSQL dialect, counting this process's writes and closing the side connections,
 * with a catalogue reader that other connections' DDL cannot fail (postgres-introspector.ts).
 */
export class CloudplanePostgresDialect extends PostgresDialect {
  readonly #database: PostgresDatabase

  constructor(database: PostgresDatabase) {
    super({ pool: database.pool })
    this.#database = database
  }

  override createDriver(): Driver {
    return new WriteCountingDriver(super.createDriver(), this.#database)
  }

  // biome-ignore lint/suspicious/noExplicitAny: the dialect's own signature
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new CurrentSchemaIntrospector(db)
  }
}

/** A connection of the pool as Kysely sees it, counting the statements that may write. */
class CountingConnection implements DatabaseConnection {
  readonly inner: DatabaseConnection
  readonly #database: PostgresDatabase
  readonly cancelQuery?: DatabaseConnection['cancelQuery']
  readonly collectSessionInfo?: DatabaseConnection['collectSessionInfo']
  readonly killSession?: DatabaseConnection['killSession']
  /** A statement other than a select ran since the transaction began: its commit is a write. */
  wrote = false

  constructor(inner: DatabaseConnection, database: PostgresDatabase) {
    this.inner = inner
    this.#database = database
    if (inner.cancelQuery) this.cancelQuery = (provider) => inner.cancelQuery?.(provider) ?? Promise.resolve()
    if (inner.collectSessionInfo)
      this.collectSessionInfo = () => inner.collectSessionInfo?.() ?? Promise.resolve()
    if (inner.killSession) this.killSession = (provider) => inner.killSession?.(provider) ?? Promise.resolve()
  }

  async executeQuery<R>(
    compiled: CompiledQuery,
    options?: AbortableOperationOptions,
  ): Promise<QueryResult<R>> {
    if (compiled.query.kind === 'SelectQueryNode') return this.inner.executeQuery<R>(compiled, options)
    this.wrote = true
    try {
      return await this.inner.executeQuery<R>(compiled, options)
    } finally {
      // Counted once done, failed or not (a cut connection leaves a write's fate unknown).
      this.#database.writes++
    }
  }

  streamQuery<R>(compiled: CompiledQuery, chunkSize: number, options?: AbortableOperationOptions) {
    return this.inner.streamQuery<R>(compiled, chunkSize, options)
  }
}

const innerOf = (connection: DatabaseConnection): DatabaseConnection =>
  connection instanceof CountingConnection ? connection.inner : connection

class WriteCountingDriver implements Driver {
  readonly #inner: Driver
  readonly #database: PostgresDatabase
  /** One wrapper per pooled connection, reused (Kysely keeps every connection it sees). */
  readonly #wrappers = new WeakMap<DatabaseConnection, CountingConnection>()

  constructor(inner: Driver, database: PostgresDatabase) {
    this.#inner = inner
    this.#database = database
  }

  init(options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.init(options)
  }

  async acquireConnection(options?: AbortableOperationOptions): Promise<DatabaseConnection> {
    const connection = await this.#inner.acquireConnection(options)
    let wrapper = this.#wrappers.get(connection)
    if (wrapper === undefined) {
      wrapper = new CountingConnection(connection, this.#database)
      this.#wrappers.set(connection, wrapper)
    }
    return wrapper
  }

  beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    if (connection instanceof CountingConnection) connection.wrote = false
    return this.#inner.beginTransaction(innerOf(connection), settings)
  }

  /** A transaction that only read (a job poll finding nothing due) is no write. */
  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const wrote = !(connection instanceof CountingConnection) || connection.wrote
    try {
      await this.#inner.commitTransaction(innerOf(connection))
    } finally {
      if (wrote) this.#database.writes++
    }
  }

  rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    return this.#inner.rollbackTransaction(innerOf(connection))
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']) {
    await this.#inner.savepoint?.(innerOf(connection), name, compile)
  }

  async rollbackToSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.#inner.rollbackToSavepoint?.(innerOf(connection), name, compile)
  }

  async releaseSavepoint(
    connection: DatabaseConnection,
    name: string,
    compile: QueryCompiler['compileQuery'],
  ) {
    await this.#inner.releaseSavepoint?.(innerOf(connection), name, compile)
  }

  releaseConnection(connection: DatabaseConnection, options?: AbortableOperationOptions): Promise<void> {
    return this.#inner.releaseConnection(innerOf(connection), options)
  }

  async destroy(options?: AbortableOperationOptions): Promise<void> {
    await this.#database.closeSideConnections()
    await this.#inner.destroy(options)
  }
}
