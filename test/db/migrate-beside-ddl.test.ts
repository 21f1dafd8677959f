import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { migrateToLatest } from '../../src/db/migrate.ts'
import { useTestApp } from '../helpers/app.ts'
import { testDialect, testPostgresUrl } from '../helpers/dialects.ts'

const TABLES = 150
const COLUMNS = 40

/**
 * Processes that start together migrate one schema (and test files migrate schemas of their own
 * in one database) while others change tables. Looking whether the migration tables exist must not
 * fail because some other table's column was renamed meanwhile: Kysely's own catalogue query looked
 * every column of every schema up by name, and one renamed between its snapshot and its lookup
 * failed the start ("column … does not exist").
 */
describe('migrations beside other schemas changing', {
  skip: testDialect() !== 'postgres' && 'PostgreSQL only: SQLite has one writer at a time',
}, () => {
  const api = useTestApp()
  const other = `ddl_${process.pid}_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: testPostgresUrl() })

  before(async () => {
    await admin.connect()
    const columns = Array.from({ length: COLUMNS }, (_, i) => `c${i} integer`).join(', ')
    await admin.query(`create schema ${other}`)
    await admin.query(`do $$ begin for i in 1..${TABLES} loop
      execute format('create table ${other}.t%s (id serial primary key, ${columns})', i);
      end loop; end $$`)
  })

  after(async () => {
    await admin.query(`drop schema ${other} cascade`)
    await admin.end()
  })

  it('checks the migration tables while another connection renames columns of another schema', async () => {
    let renaming = true
    let renames = 0
    const renamer = (async () => {
      for (let i = 0; renaming; i++) {
        const table = `${other}.t${(i % TABLES) + 1}`
        const [from, to] = Math.floor(i / TABLES) % 2 === 0 ? ['c0', 'r0'] : ['r0', 'c0']
        await admin.query(`alter table ${table} rename column ${from} to ${to}`)
        renames++
      }
    })()
    try {
      for (let run = 0; run < 8; run++) assert.deepEqual(await migrateToLatest(api.db), [])
    } finally {
      renaming = false
      await renamer
    }
    assert.ok(renames > 0, 'the other schema changed while the migrations ran')
  })

  it('reads its own schema only, serial columns marked, the migration tables only when asked', async () => {
    const tables = await api.db.introspection.getTables()
    assert.ok(tables.every((t) => t.schema === api.schema))
    const vpcs = tables.find((t) => t.name === 'vpcs')
    assert.equal(vpcs?.columns.find((c) => c.name === 'id')?.isAutoIncrementing, true)
    assert.equal(vpcs?.columns.find((c) => c.name === 'label')?.isAutoIncrementing, false)
    assert.equal(vpcs?.columns.find((c) => c.name === 'label')?.isNullable, false)
    assert.equal(tables.find((t) => t.name === 'control_journal')?.isView, true)
    assert.ok(!tables.some((t) => t.name === 'kysely_migration'))
    const all = await api.db.introspection.getTables({ withInternalKyselyTables: true })
    assert.ok(all.some((t) => t.name === 'kysely_migration'))
  })
})
