import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { changeCounterNow, notifiedChangeCounter } from '../../src/db/change-counters.ts'
import { createDb, type Db } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { createTestDatabase, type TestDatabase, testDialect, testPostgresUrl } from '../helpers/dialects.ts'
import { waitFor } from '../helpers/wait-for.ts'

const onPostgres = testDialect() === 'postgres'

const REGION = 'xx-test'

/** Moves the `catalogue` counter, as any change to the catalogue tables does. */
const touchCatalogue = (db: Db) =>
  db.updateTable('regions').set({ status: 'ok' }).where('id', '=', REGION).execute()

describe('change counters', () => {
  let database: TestDatabase
  before(async () => {
    database = await createTestDatabase()
    await migrateToLatest(database.db)
    await database.db
      .insertInto('regions')
      .values({
        id: REGION,
        label: 'Test',
        country: 'xx',
        capabilities: '[]',
        resolvers_ipv4: '',
        resolvers_ipv6: '',
        status: 'ok',
        site_type: 'core',
        position: 0,
      })
      .execute()
  })
  after(() => database.drop())

  it('an exact read made after a change sees it', async () => {
    const first = await changeCounterNow(database.db, 'catalogue')
    assert.equal(typeof first, 'number')
    await touchCatalogue(database.db)
    assert.equal(await changeCounterNow(database.db, 'catalogue'), (first as number) + 1)
  })

  describe('announced on PostgreSQL', { skip: !onPostgres && 'PostgreSQL only' }, () => {
    let other: Db
    before(() => {
      other = createDb({ kind: 'postgres', location: testPostgresUrl(), schema: database.schema as string })
    })
    after(() => other.destroy())

    const listening = (db: Db) =>
      waitFor(() => notifiedChangeCounter(db, 'catalogue') !== undefined, { message: 'the listener' })

    it('follows a change made on another connection without a read', async () => {
      await listening(database.db)
      const seen = notifiedChangeCounter(database.db, 'catalogue') as number
      await touchCatalogue(other)
      await waitFor(() => notifiedChangeCounter(database.db, 'catalogue') === seen + 1, {
        message: 'the announcement',
      })
    })

    it("is not trusted after this process's own write until an exact read returns", async () => {
      await listening(database.db)
      const seen = notifiedChangeCounter(database.db, 'catalogue') as number
      await touchCatalogue(database.db)
      // The write's announcement may not have arrived: the caller must read the counter.
      assert.equal(notifiedChangeCounter(database.db, 'catalogue'), undefined)
      assert.equal(await changeCounterNow(database.db, 'catalogue'), seen + 1)
      assert.equal(notifiedChangeCounter(database.db, 'catalogue'), seen + 1)
    })

    it('names no counter that is not announced', async () => {
      await listening(database.db)
      assert.equal(notifiedChangeCounter(database.db, 'auth'), undefined)
    })
  })
})
