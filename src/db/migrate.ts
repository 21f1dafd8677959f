import { sql } from 'kysely'
import { type Migration, type MigrationProvider, Migrator } from 'kysely/migration'
import type { Db } from './connect.ts'
import { dialectOf } from './dialects/dialect.ts'
import { migrations } from './migrations/index.ts'

const provider: MigrationProvider = {
  getMigrations: async (): Promise<Record<string, Migration>> => migrations,
}

/**
 * Brings the schema up to date. Safe when several processes start at once: PostgreSQL takes
 * Kysely's advisory lock, and SQLite runs the migrations in one write transaction.
 */
export async function migrateToLatest(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider, ...(await migrationTableSchema(db)) })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw newerDatabase(error) ?? (error instanceof Error ? error : new Error(String(error)))
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/**
 * A database a later version migrated: Kysely calls it corrupted, which it is not. Said as what
 * it is, with what to do; nothing was changed.
 */
function newerDatabase(error: unknown): Error | undefined {
  const missing = /previously executed migration (\S+) is missing/.exec(String(error))?.[1]
  if (missing === undefined) return undefined
  return new Error(
    `this database was upgraded by a later version of cloudplane (migration ${missing}, which this version does not have); run that version, or restore a backup taken before the upgrade. Nothing was changed.`,
  )
}

/**
 * Kysely looks for its bookkeeping tables in every schema unless told which one; with several
 * cloudplane schemas in one PostgreSQL database it would find another's. Pin it to ours.
 */
async function migrationTableSchema(db: Db): Promise<{ migrationTableSchema?: string }> {
  if (dialectOf(db) !== 'postgres') return {}
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db)
  const schema = rows[0]?.schema
  return schema ? { migrationTableSchema: schema } : {}
}
