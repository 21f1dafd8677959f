import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { filterFields } from '../../src/common/filter-columns.ts'
import { migrateToLatest } from '../../src/db/migrate.ts'
import {
  countRows,
  deleteRows,
  findRow,
  findValue,
  insertRows,
  rowsIn,
  rowsOf,
  takeRow,
  updateRows,
  upsertRow,
} from '../../src/db/rows.ts'
import { createTestDatabase } from '../helpers/dialects.ts'

const test = await createTestDatabase()
const { db } = test
await migrateToLatest(db)
after(() => db.destroy())

const throttle = (key: string, lockedUntil: string | null) => ({
  key,
  failures: 1,
  window_start: '2026-01-01T00:00:00',
  locked_until: lockedUntil,
})

describe('row helpers', () => {
  it('match every named column, a null one with `is null`', async () => {
    await insertRows(db, 'login_throttles', [throttle('a', null), throttle('b', '2026-01-02T00:00:00')])
    assert.equal((await findRow(db, 'login_throttles', { locked_until: null }))?.key, 'a')
    assert.equal(await countRows(db, 'login_throttles', { failures: 1 }), 2)
    assert.equal(await countRows(db, 'login_throttles', { key: 'a', locked_until: '2026-01-02T00:00:00' }), 0)
    const sql = rowsOf(db, 'login_throttles', { key: 'a', locked_until: null }).compile().sql
    assert.match(sql, /where "key" = \S+ and "locked_until" is null$/)
  })

  it('find by a statement prepared once per shape: each call its own values, a null apart, a lock', async () => {
    await insertRows(db, 'login_throttles', [throttle('p1', null), throttle('p2', '2026-01-03T00:00:00')])
    // One shape (key, then locked_until), three sets of values: each finds its own row or none.
    const byKeyAndLock = (key: string, lockedUntil: string) =>
      findRow(db, 'login_throttles', { key, locked_until: lockedUntil })
    assert.equal((await byKeyAndLock('p2', '2026-01-03T00:00:00'))?.key, 'p2')
    assert.equal(await byKeyAndLock('p1', '2026-01-03T00:00:00'), undefined)
    assert.equal(await byKeyAndLock('p2', '2026-01-04T00:00:00'), undefined)
    // The same columns with a null value is another statement (`is null`), not a slot bound to null.
    assert.equal((await findRow(db, 'login_throttles', { key: 'p1', locked_until: null }))?.key, 'p1')
    assert.equal(await findRow(db, 'login_throttles', { key: 'p2', locked_until: null }), undefined)
    await assert.rejects(
      findRow(db, 'login_throttles', { key: undefined as unknown as string }),
      /no value for the match on key/,
    )
    assert.equal(await findValue(db, 'login_throttles', 'locked_until', { key: 'p2' }), '2026-01-03T00:00:00')
    const locked = await db
      .transaction()
      .execute((trx) => findRow(trx, 'login_throttles', { key: 'p1' }, { lock: true }))
    assert.equal(locked?.key, 'p1')
    await deleteRows(db, 'login_throttles', { key: 'p1' })
    await deleteRows(db, 'login_throttles', { key: 'p2' })
  })

  it('refuse an undefined value, and a write that matches no column (the whole table)', async () => {
    const match = { key: undefined as unknown as string }
    await assert.rejects(deleteRows(db, 'login_throttles', match), /no value for the match on key/)
    await assert.rejects(deleteRows(db, 'login_throttles', {}), /a write must match some column/)
    await assert.rejects(updateRows(db, 'login_throttles', {}, { failures: 0 }), /must match some column/)
    assert.equal(await countRows(db, 'login_throttles', { failures: 1 }), 2)
  })

  it('upsert: sets the row’s other columns on a conflict, or what is given, or keeps it', async () => {
    await upsertRow(db, 'login_throttles', { ...throttle('a', null), failures: 3 }, ['key'])
    assert.equal(await findValue(db, 'login_throttles', 'failures', { key: 'a' }), 3)
    const later = throttle('a', '2026-01-03T00:00:00')
    await upsertRow(db, 'login_throttles', { ...later, failures: 9 }, ['key'], { failures: 4 })
    const row = await findRow(db, 'login_throttles', { key: 'a' })
    assert.deepEqual([row?.failures, row?.locked_until], [4, null])
    await upsertRow(db, 'login_throttles', { ...throttle('a', null), failures: 7 }, ['key'], 'keep')
    assert.equal(await findValue(db, 'login_throttles', 'failures', { key: 'a' }), 4)
    assert.equal(await findValue(db, 'login_throttles', 'failures', { key: 'none' }), undefined)
  })

  it('lists rows by a set of values in the order asked, without a query for none', async () => {
    await updateRows(db, 'login_throttles', { key: 'b' }, { failures: 2 })
    const rows = await rowsIn(db, 'login_throttles', 'key', ['b', 'a', 'c'], ['key'])
    assert.deepEqual(
      rows.map((r) => [r.key, r.failures]),
      [
        ['a', 4],
        ['b', 2],
      ],
    )
    assert.deepEqual(await rowsIn(db, 'login_throttles', 'key', []), [])
  })

  it('takes a row once: only the first of two deletes reports it', async () => {
    assert.equal(await takeRow(db, 'login_throttles', { key: 'b' }), true)
    assert.equal(await takeRow(db, 'login_throttles', { key: 'b' }), false)
  })
})

describe('filter fields by type', () => {
  it('map each field to its column, with the nullable and unordered ones marked', () => {
    const spec = filterFields(
      { integer: ['id'], string: ['label', 'vendor', 'status'] },
      { column: (field) => `images.${field}`, nullable: ['vendor'], unordered: ['status'] },
    )
    assert.deepEqual(spec, {
      id: { column: 'images.id', type: 'integer' },
      label: { column: 'images.label', type: 'string' },
      vendor: { column: 'images.vendor', type: 'string', nullable: true },
      status: { column: 'images.status', type: 'string', orderable: false },
    })
  })

  it('refuse a nullable or unordered name that is no field (a typo would go unnoticed)', () => {
    assert.throws(
      () => filterFields({ string: ['label'] }, { nullable: ['lable'] }),
      /no filterable field lable/,
    )
  })
})
