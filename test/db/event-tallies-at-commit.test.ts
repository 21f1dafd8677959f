import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { AdjustableClock, addSeconds, nowTimestamp } from '../../src/common/time.ts'
import { type Db, postgresPoolOf } from '../../src/db/connect.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { rebuildEventCounts } from '../../src/modules/events/event-counts.ts'
import { createAccountWithOwner } from '../../src/modules/users/users.service.ts'
import { createTestDatabase, type TestDatabase, testDialect } from '../helpers/dialects.ts'
import { cycledAction, eventRow, storedTallies } from '../helpers/event-rows.ts'

/** Ids of a block of 16,384 of the test's own, far above the sequence's. */
const BASE = 16_384 * 2_000

/** The tallies as a recount of the events gives them (the recount itself rolled back). */
async function recounted(db: Db) {
  let counted: Awaited<ReturnType<typeof storedTallies>> | undefined
  await db
    .transaction()
    .execute(async (trx) => {
      await rebuildEventCounts(trx)
      counted = await storedTallies(trx)
      throw new Error('rolled back')
    })
    .catch((error: Error) => {
      if (error.message !== 'rolled back') throw error
    })
  return counted
}

describe('event tallies added at commit (PostgreSQL)', {
  skip: testDialect() !== 'postgres' && 'PostgreSQL only: SQLite has one writer at a time',
}, () => {
  let database: TestDatabase
  let db: Db
  let accountId: number
  let now: string
  let next = 0
  /** An event of the account, `seconds` before now, with an id of its own. */
  const event = (seconds = 0, read = false, action?: string) => {
    const i = next++
    return eventRow({
      id: BASE + i,
      accountId,
      action: action ?? cycledAction(i),
      entityType: 'vpc',
      created: addSeconds(now, -seconds),
      read,
    })
  }

  before(async () => {
    database = await createTestDatabase()
    db = database.db
    await migrateToLatest(db)
    const clock = new AdjustableClock()
    ;({
      account: { id: accountId },
    } = await createAccountWithOwner(db, clock, {
      username: 'tallied',
      email: 't@example.com',
    }))
    now = nowTimestamp(clock)
  })

  after(async () => {
    await db.destroy()
    await database.drop()
  })

  it('lets a second writer of the account commit while the first has not committed', async () => {
    const pool = postgresPoolOf(db)
    assert.ok(pool !== undefined)
    const other = await pool.connect()
    try {
      // Same account, kind, second and block of ids: every tally row of the two is shared.
      await db.transaction().execute(async (trx) => {
        await trx
          .insertInto('events')
          .values(event(0, false, 'vpc_create'))
          .execute()
        await other.query(`set lock_timeout = '1s'`)
        const insert = db
          .insertInto('events')
          .values(event(0, false, 'vpc_create'))
          .compile()
        // Before the change this waited for the first transaction's tally rows, then timed out.
        await other.query(insert.sql, [...insert.parameters])
      })
    } finally {
      await other.query('reset lock_timeout')
      other.release()
    }
    const kept = await storedTallies(db)
    assert.equal(
      kept.days.reduce((sum, t) => sum + Number(t.n), 0),
      2,
    )
    assert.deepEqual(kept, await recounted(db))
  })

  it('counts every event of a transaction that mixes single and bulk writes, changes and deletes', async () => {
    await db.transaction().execute(async (trx) => {
      const single = event(30)
      await trx.insertInto('events').values(single).execute()
      const bulk = [event(40), event(50), event(4000)]
      await trx.insertInto('events').values(bulk).execute()
      // A change and a delete of events whose tallies still wait, and of one tallied at once.
      await trx
        .updateTable('events')
        .set({ read: true })
        .where('id', '=', single.id as number)
        .execute()
      await trx
        .deleteFrom('events')
        .where('id', 'in', [single.id as number, bulk[1]?.id as number])
        .execute()
      const moved = event(60)
      await trx.insertInto('events').values(moved).execute()
      await trx
        .updateTable('events')
        .set({ created: addSeconds(now, -3 * 86_400), action: 'vpc_delete' })
        .where('id', '=', moved.id as number)
        .execute()
      // More events alone than the transaction lists: the rest are tallied at once.
      for (let i = 0; i < 150; i++)
        await trx
          .insertInto('events')
          .values(event(i * 61))
          .execute()
    })
    assert.deepEqual(await storedTallies(db), await recounted(db))
  })

  it('counts an event written alone once when its transaction also recounts every event', async () => {
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('events').values(event(5)).execute()
      await rebuildEventCounts(trx)
      await trx.insertInto('events').values(event(6)).execute()
    })
    assert.deepEqual(await storedTallies(db), await recounted(db))
  })
})
