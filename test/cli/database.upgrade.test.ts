import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { migrations } from '../../src/db/migrations/index.ts'
import { testDialect } from '../helpers/dialects.ts'
import { migrateTo } from '../helpers/migrate-to.ts'
import { type ProcessDatabase, processDatabase } from '../helpers/processes.ts'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

function run(args: string[], env: Record<string, string>) {
  const { DATA_DIR: _d, DATABASE_URL: _u, ...rest } = process.env
  return spawnSync(process.execPath, [CLI, ...args], {
    env: { ...rest, LOG_LEVEL: 'warn', ...env },
    encoding: 'utf8',
  })
}

/**
 * A command of a newer version on a database an older server runs on migrates it, and older
 * servers cannot start on it after: the command says so, once, rather than upgrade it silently.
 */
describe('a command on a database of an earlier version', () => {
  let dir: string
  let database: ProcessDatabase
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-cli-upgrade-'))
    database = await processDatabase(dir)
    const db = database.open()
    const names = Object.keys(migrations)
    const schema = new URL(database.url).searchParams.get('schema') ?? undefined
    await migrateTo({ db, dialect: testDialect(), schema, drop: async () => {} }, names.at(-2) as string)
    await db.destroy()
  })
  after(async () => {
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('says it upgraded it, naming the migrations, and then says nothing more', () => {
    const last = Object.keys(migrations).at(-1) as string
    const first = run(['account', 'create', '--username', 'upgrader', '--email', 'up@example.com'], {
      DATABASE_URL: database.url,
    })
    assert.equal(first.status, 0, first.stderr)
    assert.match(first.stderr, new RegExp(`upgraded the database .* to this version \\(${last}\\)`))
    assert.match(first.stderr, /servers of an earlier version no longer start on it/)
    const again = run(['account', 'limits', '--username', 'upgrader'], { DATABASE_URL: database.url })
    assert.equal(again.status, 0, again.stderr)
    assert.doesNotMatch(again.stderr, /upgraded/)
  })

  it('says nothing of an upgrade when it creates the database', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'cloudplane-cli-fresh-'))
    try {
      const created = run(['account', 'create', '--username', 'newcomer', '--email', 'new@example.com'], {
        DATA_DIR: fresh,
      })
      assert.equal(created.status, 0, created.stderr)
      assert.doesNotMatch(created.stderr, /upgraded/)
    } finally {
      rmSync(fresh, { recursive: true, force: true })
    }
  })
})
