import { sql } from 'kysely'
import type { Db } from '../db/connect.ts'
import { StartupError } from './startup-error.ts'

/**
 * Makes sure the schema named by `?schema=` exists: PostgreSQL would otherwise fail the first
 * migration with "no schema has been selected to create in". Creates it when the user may; says
 * how otherwise. Returns whether it was created.
 */
export async function ensurePostgresSchema(db: Db, schema: string): Promise<boolean> {
  const found = await sql<{
    n: number
  }>`select count(*) as n from pg_namespace where nspname = ${schema}`.execute(db)
  if (Number(found.rows[0]?.n) > 0) return false
  try {
    await sql`create schema if not exists ${sql.id(schema)}`.execute(db)
    return true
  } catch (error) {
    const e = error as { code?: string; message?: string }
    // Another process starting at the same moment created it first.
    if (e.code === '23505' || e.code === '42P06') return false
    throw new StartupError(
      `the PostgreSQL schema "${schema}" does not exist and cannot be created (${e.message}); create it with: CREATE SCHEMA ${schema}; or remove ?schema= from DATABASE_URL`,
    )
  }
}
