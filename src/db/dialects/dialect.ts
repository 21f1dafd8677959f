import { type Kysely, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely'

/**
 * The few places where SQLite and PostgreSQL differ, behind one small seam (the Directus
 * `getHelpers(db)` idea). Everything else is portable Kysely.
 */
export type SqlDialect = 'sqlite' | 'postgres'

// biome-ignore lint/suspicious/noExplicitAny: works for any database interface
export function dialectOf(db: Kysely<any>): SqlDialect {
  return db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite'
}

/**
 * Locks the selected rows until the transaction ends, against every other writer of them. On
 * PostgreSQL this is FOR NO KEY UPDATE: as exclusive as FOR UPDATE among writers, but it does not
 * block inserts of rows that reference the locked one (their foreign-key check takes KEY SHARE),
 * which FOR UPDATE would, deadlocking a write that locks an account against one that inserts an
 * event for it. On SQLite every write transaction already holds the database's single write lock
 * (BEGIN IMMEDIATE), so there is nothing to add.
 */
export function forUpdate<DB, TB extends keyof DB, O>(
  // biome-ignore lint/suspicious/noExplicitAny: any database interface
  db: Kysely<any>,
  query: SelectQueryBuilder<DB, TB, O>,
): SelectQueryBuilder<DB, TB, O> {
  return dialectOf(db) === 'postgres' ? query.forNoKeyUpdate() : query
}

/** Serializes start-up seeding across processes that share one PostgreSQL database. */
// biome-ignore lint/suspicious/noExplicitAny: any database interface
export async function lockForSeeding(trx: Kysely<any>): Promise<void> {
  if (dialectOf(trx) === 'postgres') await sql`select pg_advisory_xact_lock(7270001)`.execute(trx)
}

/** SQLite's extended result codes for a violated UNIQUE or PRIMARY KEY constraint. */
const SQLITE_CONSTRAINT_UNIQUE = 2067
const SQLITE_CONSTRAINT_PRIMARYKEY = 1555

/** A unique-constraint violation from either driver, so services can turn races into 400s. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; errcode?: number } | null
  return (
    e?.code === '23505' ||
    e?.errcode === SQLITE_CONSTRAINT_UNIQUE ||
    e?.errcode === SQLITE_CONSTRAINT_PRIMARYKEY
  )
}
