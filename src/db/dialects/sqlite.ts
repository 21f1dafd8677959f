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
import type { SqliteEngine } from '../sqlite/engine.ts'

/**
 * Kysely over the shared SQLite engine (../sqlite/engine.ts): every acquisition takes the engine's
 * mutex, transactions are the engine's group-committed savepoints.
 */

/** One use of the shared connection, from acquire to release. */
class Lease implements DatabaseConnection {
  readonly engine: SqliteEngine
  released = false

  constructor(engine: SqliteEngine) {
    this.engine = engine
  }

  async executeQuery<R>(compiled: { sql: string; parameters: readonly unknown[] }): Promise<QueryResult<R>> {
    let result: QueryResult<unknown>
    let durable: Promise<void> | undefined
    if (!this.released) {
      result = this.engine.execute(compiled.sql, compiled.parameters)
      durable = this.engine.writeDurable()
      if (durable !== undefined) {
        // Committed and outside any transaction: the connection is free for others meanwhile.
        this.released = true
        this.engine.mutex.unlock()
      }
    } else {
      // The lease gave the lock back at commit (group commit); take it again for this query.
      await this.engine.mutex.lock()
      try {
        result = this.engine.execute(compiled.sql, compiled.parameters)
        durable = this.engine.writeDurable()
      } finally {
        this.engine.mutex.unlock()
      }
    }
    // A write outside any transaction is answered once it is on the disk, as a commit is.
    if (durable !== undefined) await durable
    return result as QueryResult<R>
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
    const lease = connection as Lease
    // Kysely rolls back when the commit fails; by then the savepoint is released, and the group's
    // COMMIT (or its flush) decided its fate: there is nothing left to roll back.
    if (lease.released) return
    lease.engine.rollback()
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
