import { Kysely, PostgresDialect } from 'kysely'
import type pg from 'pg'
import type { Database } from './database.ts'
import { createPostgresPool } from './dialects/postgres.ts'
import { CloudplaneSqliteDialect, openSqlite, type SqliteEngine } from './dialects/sqlite.ts'

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
const pools = new WeakMap<object, pg.Pool>()

export function createDb(target: DatabaseTarget): Db {
  if (target.kind === 'sqlite') {
    const engine = openSqlite(target.location)
    const db = new Kysely<Database>({ dialect: new CloudplaneSqliteDialect(engine) })
    engines.set(db, engine)
    return db
  }
  const pool = createPostgresPool(
    target.schema === undefined
      ? { connectionString: target.location }
      : { connectionString: target.location, schema: target.schema },
  )
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) })
  pools.set(db, pool)
  return db
}

/**
 * The credentials' change counter (see SqliteEngine.authGeneration), or undefined where there is
 * none (PostgreSQL: tokens are read from the server on every request anyway).
 */
export function authGeneration(db: Db): number | undefined {
  return engines.get(db)?.authGeneration()
}

/** The SQLite engine behind a top-level Db (not a transaction), for the few hot paths that need it. */
export function sqliteEngineOf(db: Db): SqliteEngine | undefined {
  return engines.get(db)
}

/** The PostgreSQL pool behind a top-level Db (not a transaction), for prepared reads. */
export function postgresPoolOf(db: Db): pg.Pool | undefined {
  return pools.get(db)
}
