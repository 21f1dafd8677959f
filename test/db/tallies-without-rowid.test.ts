import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { AdjustableClock, addSeconds, nowTimestamp } from '../../src/common/time.ts'
import type { Db } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { rebuildEventCounts } from '../../src/modules/events/event-counts.ts'
import { createAccountWithOwner } from '../../src/modules/users/users.service.ts'
import { createTestDatabase, testDialect } from '../helpers/dialects.ts'
import { cycledAction, eventRow, storedTallies } from '../helpers/event-rows.ts'
import { migrateTo } from '../helpers/migrate-to.ts'

const BEFORE = '2026_11_27_0900_event_page_versions'
const TABLES = ['event_tallies', 'event_range_tallies']
/** Ids across the edge of a block of 16,384, so that both block sizes hold several buckets. */
const BASE = 16_384 * 1_000 - 300

const withoutRowid = async (db: Db) =>
  Object.fromEntries(
    await Promise.all(
      TABLES.map(async (t) => {
        const row = await sql<{ wr: number }>`select wr from pragma_table_list where name = ${t}`.execute(db)
        return [t, row.rows[0]?.wr === 1] as const
      }),
    ),
  )

const triggerNames = async (db: Db) =>
  (
    await sql<{ name: string }>`select name from sqlite_master where type = 'trigger' and tbl_name = 'events'
      order by name`.execute(db)
  ).rows.map((r) => r.name)

describe('event tallies stored without rowids (SQLite)', {
  skip: testDialect() !== 'sqlite' && 'SQLite only: PostgreSQL tables are unchanged',
}, () => {
  it('keeps every tally, and the triggers that keep them, through the migration and back', async () => {
    const database = await createTestDatabase()
    const db = database.db
    const clock = new AdjustableClock()
    try {
      assert.equal((await migrateTo(database, BEFORE)).error, undefined)
      const { account } = await createAccountWithOwner(db, clock, {
        username: 'tallied',
        email: 't@example.com',
      })
      const now = nowTimestamp(clock)
      const event = (i: number) =>
        eventRow({
          id: BASE + i,
          accountId: account.id,
          action: cycledAction(i),
          entityType: i % 4 === 0 ? null : 'vpc',
          created: addSeconds(now, -((i * 7919) % 400_000)),
          read: i % 5 === 0,
        })
      await db
        .insertInto('events')
        .values(Array.from({ length: 600 }, (_, i) => event(i)))
        .execute()
      const triggers = await triggerNames(db)
      const before = await storedTallies(db)
      assert.ok(before.ranges.length > 20, 'the events fill several buckets of every scale')
      assert.deepEqual(await withoutRowid(db), { event_tallies: false, event_range_tallies: false })

      await migrateToLatest(db)
      assert.deepEqual(await withoutRowid(db), { event_tallies: true, event_range_tallies: true })
      assert.deepEqual(await storedTallies(db), before)
      assert.deepEqual(await triggerNames(db), triggers)

      // The triggers write to the new tables: inserts, a read mark, a move in time and deletes.
      await db
        .insertInto('events')
        .values(Array.from({ length: 300 }, (_, i) => event(600 + i)))
        .execute()
      await db
        .updateTable('events')
        .set({ read: true })
        .where('id', '<', BASE + 100)
        .execute()
      await db
        .updateTable('events')
        .set({ created: addSeconds(now, -3 * 86_400) })
        .where('id', '=', BASE + 7)
        .execute()
      await db
        .deleteFrom('events')
        .where('id', '>=', BASE + 850)
        .execute()
      const kept = await storedTallies(db)
      assert.notDeepEqual(kept, before)
      await rebuildEventCounts(db)
      assert.deepEqual(await storedTallies(db), kept, 'as if tallied again from the events')

      assert.equal((await migrateTo(database, BEFORE)).error, undefined)
      assert.deepEqual(await withoutRowid(db), { event_tallies: false, event_range_tallies: false })
      assert.deepEqual(await storedTallies(db), kept)
      assert.deepEqual(await triggerNames(db), triggers)
    } finally {
      await db.destroy()
      await database.drop()
    }
  })
})
