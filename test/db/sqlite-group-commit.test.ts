import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { after, before, describe, it } from 'node:test'
import { type Generated, Kysely, sql } from 'kysely'
import { CloudplaneSqliteDialect } from '../../src/db/dialects/sqlite.ts'
import { openSqlite, type SqliteEngine } from '../../src/db/sqlite/engine.ts'

interface Schema {
  notes: { id: Generated<number>; body: string; flag: boolean }
}

describe('SQLite driver: durable group commit', () => {
  let dir: string
  let file: string
  let engine: SqliteEngine
  let db: Kysely<Schema>

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-sqlite-'))
    file = join(dir, 'test.db')
    engine = openSqlite(file)
    db = new Kysely<Schema>({ dialect: new CloudplaneSqliteDialect(engine) })
    await sql`create table notes (id integer primary key autoincrement, body text not null, flag boolean not null default false)`.execute(
      db,
    )
  })
  after(async () => {
    await db.destroy()
    rmSync(dir, { recursive: true, force: true })
  })

  /** A separate connection, as another process would have: sees only what is committed. */
  const committedCount = (): number => {
    const other = new DatabaseSync(file, { readOnly: true })
    try {
      return (other.prepare('select count(*) as n from notes').get() as { n: number }).n
    } finally {
      other.close()
    }
  }

  it('commits concurrent transactions in groups, and each is durable when it resolves', async () => {
    await db.deleteFrom('notes').execute()
    const before = engine.commits
    const seenAtResolve: number[] = []
    await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        db
          .transaction()
          .execute(async (trx) => {
            await trx
              .insertInto('notes')
              .values({ body: `n${i}`, flag: i % 2 === 0 })
              .execute()
          })
          .then(() => seenAtResolve.push(committedCount())),
      ),
    )
    assert.equal(committedCount(), 50)
    const commits = engine.commits - before
    assert.ok(commits < 50, `expected grouped commits, got ${commits} for 50 transactions`)
    // When a transaction's promise resolves, its row is already visible to another connection.
    assert.ok(seenAtResolve.every((n) => n >= 1))
  })

  it('a failed transaction rolls back only its own writes, the rest of its group commits', async () => {
    await db.deleteFrom('notes').execute()
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('notes')
            .values({ body: `ok${i}`, flag: false })
            .execute()
          if (i % 3 === 0) throw new Error(`fail ${i}`)
        }),
      ),
    )
    assert.equal(results.filter((r) => r.status === 'rejected').length, 4)
    const bodies = (await db.selectFrom('notes').select('body').orderBy('id').execute()).map((r) => r.body)
    assert.deepEqual(bodies, ['ok1', 'ok2', 'ok4', 'ok5', 'ok7', 'ok8'])
    assert.equal(committedCount(), 6)
  })

  it('returns booleans as booleans and binds booleans as 0/1', async () => {
    await db.deleteFrom('notes').execute()
    await db.insertInto('notes').values({ body: 'b', flag: true }).execute()
    const row = await db
      .selectFrom('notes')
      .select(['flag', 'body'])
      .where('flag', '=', true)
      .executeTakeFirstOrThrow()
    assert.equal(row.flag, true)
  })

  it('a write outside any transaction is durable when it resolves, even while a group is open', async () => {
    await db.deleteFrom('notes').execute()
    const inGroup = db.transaction().execute(async (trx) => {
      await trx.insertInto('notes').values({ body: 'grouped', flag: false }).execute()
    })
    await db.insertInto('notes').values({ body: 'plain', flag: false }).execute()
    assert.equal(committedCount(), 2)
    await inGroup
  })

  it('a commit is answered only once the write-ahead log was flushed after it', async () => {
    // A second engine on the file whose flushes the test holds back and lets go.
    const held: Array<() => void> = []
    const flushes: number[] = []
    const other = openSqlite(file, {
      syncFile: (fd, done) => {
        flushes.push(fd)
        held.push(() => done(null))
      },
    })
    const heldDb = new Kysely<Schema>({ dialect: new CloudplaneSqliteDialect(other) })
    const settled = (p: Promise<unknown>) => {
      let done = false
      void p.then(() => {
        done = true
      })
      return () => done
    }
    try {
      const tx = settled(
        heldDb.transaction().execute(async (trx) => {
          await trx.insertInto('notes').values({ body: 'held', flag: false }).execute()
        }),
      )
      await waitUntil(() => held.length === 1)
      await turns(3)
      assert.equal(tx(), false, 'answered before the log was on the disk')
      held.shift()?.()
      await waitUntil(tx)
      const plain = settled(heldDb.insertInto('notes').values({ body: 'plain', flag: false }).execute())
      await waitUntil(() => held.length === 1)
      await turns(3)
      assert.equal(plain(), false, 'a write outside a transaction answered before the flush')
      held.shift()?.()
      await waitUntil(plain)
      assert.ok(flushes.length >= 2)
    } finally {
      for (const release of held.splice(0)) release()
      await heldDb.destroy()
    }
  })

  it('a failed flush fails its commit and every later one (nothing is acknowledged unflushed)', async () => {
    const failing = openSqlite(file, { syncFile: (_fd, done) => done(new Error('EIO: the disk failed')) })
    const failingDb = new Kysely<Schema>({ dialect: new CloudplaneSqliteDialect(failing) })
    try {
      for (const body of ['first', 'second']) {
        await assert.rejects(
          failingDb.transaction().execute(async (trx) => {
            await trx.insertInto('notes').values({ body, flag: false }).execute()
          }),
          /the disk failed/,
        )
      }
      await assert.rejects(
        failingDb.insertInto('notes').values({ body: 'plain', flag: false }).execute(),
        /disk/,
      )
    } finally {
      await failingDb.destroy().catch(() => {})
    }
  })

  it('another process writing the same file queues on the write lock instead of failing', async () => {
    await db.deleteFrom('notes').execute()
    const script = `
      const { DatabaseSync } = require('node:sqlite'); const d = new DatabaseSync(${JSON.stringify(file)});
      d.exec('pragma busy_timeout = 5000');
      for (let i = 0; i < 200; i++) { d.exec('begin immediate'); d.prepare("insert into notes (body) values ('child')").run(); d.exec('commit') }
      d.close()`
    const child = spawn(process.execPath, ['-e', script], {
      cwd: process.cwd(),
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    // Listen before the parent's loop: the child may well finish first.
    const exited = once(child, 'exit')
    let stderr = ''
    child.stderr.on('data', (d) => {
      stderr += d
    })
    for (let i = 0; i < 200; i++) {
      await db.transaction().execute(async (trx) => {
        await trx.insertInto('notes').values({ body: 'parent', flag: false }).execute()
      })
    }
    const [code] = await exited
    assert.equal(code, 0, stderr)
    assert.equal(committedCount(), 400)
  })
})

async function waitUntil(check: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((r) => setTimeout(r, 5))
  assert.ok(check(), 'timed out')
}

/** A few turns of the event loop: what was already settled has been seen by then. */
async function turns(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await new Promise((r) => setImmediate(r))
}
