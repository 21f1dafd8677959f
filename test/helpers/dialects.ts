import { randomBytes } from 'node:crypto'
import pg from 'pg'
import { createDb, type Db } from '../../src/db/connect.ts'

/**
 * The engine a test process runs on, chosen by the test runner (scripts/run-tests.ts):
 * `CLOUDPLANE_TEST_DIALECT=sqlite` (default) or `postgres` with `TEST_DATABASE_URL`.
 */
export type TestDialect = 'sqlite' | 'postgres'

export function testDialect(): TestDialect {
  return process.env.CLOUDPLANE_TEST_DIALECT === 'postgres' ? 'postgres' : 'sqlite'
}

export function testPostgresUrl(): string {
  const url = process.env.TEST_DATABASE_URL
  if (!url) throw new Error('TEST_DATABASE_URL is not set: PostgreSQL tests need a database')
  return url
}

export interface TestDatabase {
  db: Db
  dialect: TestDialect
  /** PostgreSQL schema of this database (other processes can connect to the same one). */
  schema?: string
  drop(): Promise<void>
}

/** A fresh, empty database: in-memory SQLite, or a new schema in the test PostgreSQL database. */
export async function createTestDatabase(): Promise<TestDatabase> {
  if (testDialect() === 'sqlite') {
    const db = createDb({ kind: 'sqlite', location: ':memory:' })
    return { db, dialect: 'sqlite', drop: async () => {} }
  }
  const url = testPostgresUrl()
  const schema = `${process.env.CLOUDPLANE_TEST_SCHEMA_PREFIX ?? 'test_'}${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: url })
  await admin.connect()
  await admin.query(`create schema ${schema}`)
  await admin.end()
  const db = createDb({ kind: 'postgres', location: url, schema })
  return {
    db,
    dialect: 'postgres',
    schema,
    // Schemas are dropped by the test runner after the whole pass: a DROP SCHEMA while other test
    // processes migrate races with Kysely's catalogue introspection ("schema … does not exist").
    drop: async () => {},
  }
}
