import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import { sql } from 'kysely'
import { defineShaped, runPrepared, shapeKey, slot } from '../../src/db/prepared.ts'
import { createTestDatabase } from '../helpers/dialects.ts'

const database = await createTestDatabase()
after(() => database.drop())

describe('prepared statements cached by shape', () => {
  it('runs under the test runner with every cache hit checked', () => {
    assert.equal(process.env.CLOUDPLANE_VERIFY_PREPARED, '1')
  })

  it('builds once per shape and fills slots per call', async () => {
    let builds = 0
    const query = defineShaped('test.add', (db, shape: { plus: number }) => {
      builds++
      return {
        one: sql<{
          n: number
        }>`select cast(${slot<number>('x')} as integer) + cast(${shape.plus} as integer) as n`.compile(db),
      }
    })
    const first = await runPrepared(database.db, query(database.db, { plus: 1 }).one, { x: 2 })
    const again = await runPrepared(database.db, query(database.db, { plus: 1 }).one, { x: 40 })
    assert.deepEqual([Number(first.rows[0]?.n), Number(again.rows[0]?.n)], [3, 41])
    // The second call rebuilt only to check the cached statement; a new shape is a new entry.
    assert.equal(builds, 2)
    await runPrepared(database.db, query(database.db, { plus: 5 }).one, { x: 0 })
    assert.equal(builds, 3)
  })

  it('refuses a builder whose SQL depends on something its shape does not name', () => {
    let userId = 1
    const leaky = defineShaped('test.leaky', (db, _shape: { restricted: boolean }) => ({
      one: sql`select ${userId} as id`.compile(db),
    }))
    leaky(database.db, { restricted: true })
    userId = 2
    assert.throws(
      () => leaky(database.db, { restricted: true }),
      /depends on something its shape does not name/,
    )
  })

  it('keys equal shapes alike whatever their key order', () => {
    assert.equal(shapeKey({ a: 1, b: [true, 'x'] }), shapeKey({ b: [true, 'x'], a: 1 }))
    assert.notEqual(shapeKey({ a: 1 }), shapeKey({ a: '1' }))
  })

  it('keys a flat shape as its sorted JSON, whichever path writes it', () => {
    // In order (the quick path) and out of order (the sorting one): one key, absent keys left out.
    assert.equal(shapeKey({ a: 1, b: null, c: undefined, d: 'x' }), '{"a":1,"b":null,"d":"x"}')
    assert.equal(shapeKey({ d: 'x', c: undefined, b: null, a: 1 }), '{"a":1,"b":null,"d":"x"}')
    assert.equal(shapeKey({ a: { z: 1, y: 2 } }), '{"a":{"y":2,"z":1}}')
  })
})
