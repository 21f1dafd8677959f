import { closeSync, openSync } from 'node:fs'
import { Kysely } from 'kysely'
import type pg from 'pg'
import type { Database } from './database.ts'
import { CloudplanePostgresDialect, PostgresDatabase } from './dialects/postgres.ts'
import { CloudplaneSqliteDialect } from './dialects/sqlite.ts'
import { openSqlite, type SqliteEngine } from './sqlite/engine.ts'

export type Db = Kysely<Database>

export interface DatabaseTarget {
  kind: 'sqlite' | 'postgres'
  /** SQLite file name (or `:memory:`), or the PostgreSQL connection string. */
  location: string
  /** PostgreSQL schema to use instead of `public`. */
  schema?: string
}

/**
 * Parses `sqlite:<file>`, `sqlite::memory:` or `postgres://…` (DATABASE_URL). A PostgreSQL URL may
 * carry `?schema=<name>` to keep cloudplane's tables out of `public`.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget | undefined {
  if (url.startsWith('sqlite:')) {
    const location = url.slice('sqlite:'.length)
    if (location === '') return undefined
    return { kind: 'sqlite', location }
  }
  if (/^postgres(ql)?:\/\//.test(url)) {
    let parsed: URL
    try {
      parsed = new URL(url)
    } catch {
      return undefined
    }
    const schema = parsed.searchParams.get('schema')
    if (schema === null) return { kind: 'postgres', location: url }
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) return undefined
    parsed.searchParams.delete('schema')
    return { kind: 'postgres', location: parsed.toString(), schema }
  }
  return undefined
}

const engines = new WeakMap<object, SqliteEngine>()
const postgresDatabases = new WeakMap<object, PostgresDatabase>()

export function createDb(target: DatabaseTarget): Db {
  if (target.kind === 'sqlite') {
    createPrivately(target.location)
    const engine = openSqlite(target.location)
    const db = new Kysely<Database>({ dialect: new CloudplaneSqliteDialect(engine) })
    engines.set(db, engine)
    return db
  }
  const database = new PostgresDatabase(
    target.schema === undefined
      ? { connectionString: target.location }
      : { connectionString: target.location, schema: target.schema },
  )
  const db = new Kysely<Database>({ dialect: new CloudplanePostgresDialect(database) })
  postgresDatabases.set(db, database)
  return db
}

/**
 * Creates a missing SQLite file readable by the server's user alone; SQLite gives its WAL and
 * shared-memory files the database file's mode.
 */
function createPrivately(location: string): void {
  if (location === ':memory:' || location.startsWith('file:')) return
  try {
    closeSync(openSync(location, 'wx', 0o600))
  } catch (error) {
    // Already there (kept as its owner set it), or not creatable: opening it says why.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return
  }
}

/**
 * A named change counter (see SqliteEngine.changeCounter), read without a round trip, or undefined
 * where there is no such read (PostgreSQL, where it would cost as much as the lookup it spares).
 */
export function changeCounter(db: Db, name: string): number | undefined {
  return engines.get(db)?.changeCounter(name)
}

/** The SQLite engine behind a top-level Db (not a transaction), for the few hot paths that need it. */
export function sqliteEngineOf(db: Db): SqliteEngine | undefined {
  return engines.get(db)
}

/** The PostgreSQL pool behind a top-level Db (not a transaction), for prepared reads. */
export function postgresPoolOf(db: Db): pg.Pool | undefined {
  return postgresDatabases.get(db)?.pool
}

/** The PostgreSQL database behind a top-level Db (its side connections, this process's writes). */
export function postgresDatabaseOf(db: Db): PostgresDatabase | undefined {
  return postgresDatabases.get(db)
}
