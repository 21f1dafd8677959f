import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/dialects.ts'

/**
 * A database a later version migrated is refused with what happened and what to do, not Kysely's
 * "corrupted migrations" (nothing is corrupted, and nothing is changed).
 */
describe('a database migrated by a later version', () => {
  let database: TestDatabase
  before(async () => {
    database = await createTestDatabase()
    await migrateToLatest(database.db)
    await sql`insert into kysely_migration (name, timestamp) values ('2099_01_01_0000_later', '2099-01-01T00:00:00.000Z')`.execute(
      database.db,
    )
  })
  after(async () => {
    await database.db.destroy()
    await database.drop()
  })

  it('is refused naming the later migration and what to do', async () => {
    await assert.rejects(migrateToLatest(database.db), (error: Error) => {
      assert.match(
        error.message,
        /upgraded by a later version of cloudplane \(migration 2099_01_01_0000_later/,
      )
      assert.match(error.message, /run that version, or restore a backup/)
      assert.doesNotMatch(error.message, /corrupted/)
      return true
    })
  })
})
