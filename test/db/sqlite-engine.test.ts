import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, beforeEach, describe, it } from 'node:test'
import { isUniqueViolation } from '../../src/db/dialects/dialect.ts'
import { openSqlite, type SqliteEngine } from '../../src/db/sqlite/engine.ts'

describe('SQLite engine: the values it binds and returns', () => {
  let dir: string
  let engine: SqliteEngine

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-sqlite-engine-'))
    engine = openSqlite(join(dir, 'test.db'))
    engine.execute(
      'create table items (id integer primary key, label text unique, size integer, active boolean)',
      [],
    )
    engine.execute('create table change_counters (name text primary key, value integer not null)', [])
  })
  after(() => {
    engine.close()
    rmSync(dir, { recursive: true, force: true })
  })
  beforeEach(() => {
    engine.execute('delete from items', [])
  })

  it('returns rows as plain objects, booleans as booleans, and binds booleans and undefined', () => {
    engine.execute('insert into items (label, size, active) values (?, ?, ?)', ['a', undefined, true])
    const { rows } = engine.execute('select label, size, active from items where active = ?', [true])
    assert.deepEqual(rows, [{ label: 'a', size: null, active: true }])
  })

  it('reads an integer beyond 2^53 as a number, in a read and in a write that returns it', () => {
    const big = 2 ** 60
    const inserted = engine.execute('insert into items (label, size) values (?, ?) returning size', [
      'big',
      big,
    ])
    assert.deepEqual(inserted.rows, [{ size: big }])
    const { rows } = engine.execute('select size from items where label = ?', ['big'])
    assert.deepEqual(rows, [{ size: big }])
  })

  it('reports the affected rows and the new row id of a write', () => {
    const result = engine.execute('insert into items (id, label) values (?, ?)', [41, 'x'])
    assert.equal(result.numAffectedRows, 1n)
    assert.equal(result.insertId, 41n)
  })

  it('a duplicate key is recognised as a unique violation', () => {
    engine.execute('insert into items (label) values (?)', ['twice'])
    assert.throws(
      () => engine.execute('insert into items (label) values (?)', ['twice']),
      (error: unknown) => isUniqueViolation(error),
    )
  })

  it('a read leaves an open group as it is; a write outside any transaction commits it', async () => {
    const before = engine.commits
    engine.begin()
    engine.execute('insert into items (label) values (?)', ['grouped'])
    const durable = engine.commit()
    engine.execute('select count(*) as n from items', [])
    assert.equal(engine.commits, before, 'a read does not commit the group')
    engine.execute('insert into items (label) values (?) returning id', ['plain'])
    assert.equal(engine.commits, before + 1, 'a write commits the group with it')
    await durable
  })

  it('a cached `select *` brings the columns a later schema change added', () => {
    engine.execute('create table widened (a integer)', [])
    engine.execute('insert into widened (a) values (?)', [1])
    assert.deepEqual(engine.execute('select * from widened', []).rows, [{ a: 1 }])
    engine.execute('alter table widened add column b text', [])
    assert.deepEqual(engine.execute('select * from widened', []).rows, [{ a: 1, b: null }])
  })

  it('reads a named change counter, and undefined for a name nobody counts', () => {
    engine.execute('insert into change_counters (name, value) values (?, ?)', ['things', 7])
    assert.equal(engine.changeCounter('things'), 7)
    engine.execute('update change_counters set value = value + 1 where name = ?', ['things'])
    assert.equal(engine.changeCounter('things'), 8)
    assert.equal(engine.changeCounter('nobody'), undefined)
  })
})
