import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, describe, it } from 'node:test'
import type { FastifyBaseLogger, InjectOptions } from 'fastify'
import { type Kysely, sql } from 'kysely'
import { buildApp } from '../../../src/app.ts'
import { AdjustableClock } from '../../../src/common/time.ts'
import type { Db } from '../../../src/db/connect.ts'
import { dialectOf } from '../../../src/db/dialects/dialect.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { ensureAdminKey } from '../../../src/modules/control/admin-key.ts'
import {
  type JournalLimits,
  JournalWriter,
  type PendingEntry,
} from '../../../src/modules/control/journal/journal-writer.ts'
import { prepareDatabase } from '../../../src/setup.ts'
import { createTestDatabase } from '../../helpers/dialects.ts'
import { migrateTo } from '../../helpers/migrate-to.ts'
import { processDatabase } from '../../helpers/processes.ts'
import { ADMIN_KEY, adminHeaders, BOOTSTRAP_TOKEN, bootstrapHeaders, useControlApp } from './control-app.ts'
import { journalEntry } from './journal-entry.ts'

const entry = (path: string, atMs: number, responseBody?: string) => journalEntry(path, atMs, responseBody)

interface Listed {
  id: number
  path: string
  response_body: unknown
}

// biome-ignore lint/suspicious/noExplicitAny: JSON answers, read as the tests expect them
type Admin = (method: 'GET' | 'DELETE', url: string) => Promise<{ status: number; body: any }>

/** Writes each batch (a flush per batch), then lists `prefix`'s entries, newest first. */
async function writeBatches(
  writer: JournalWriter,
  admin: Admin,
  prefix: string,
  batches: Array<Array<PendingEntry>>,
): Promise<Listed[]> {
  for (const batch of batches) {
    for (const e of batch) writer.push(e)
    await writer.flush()
  }
  const res = await admin('GET', `/journal?path=${prefix}&page_size=500`)
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.data
}

/**
 * Makes every insert (a batch written) or every delete (the ring trimmed) of a batch fail, as a
 * trigger refuses it, or stops doing so.
 */
async function refuseBatches(db: Db, event: 'insert' | 'delete', refuse: boolean): Promise<void> {
  const postgres = dialectOf(db) === 'postgres'
  const statements = refuse
    ? postgres
      ? [
          `create function refuse_batch() returns trigger language plpgsql as $$ begin raise exception 'refused'; end $$`,
          `create trigger refuse_batch before ${event} on control_journal_batches for each row execute function refuse_batch()`,
        ]
      : [
          `create trigger refuse_batch before ${event} on control_journal_batches begin select raise(abort, 'refused'); end`,
        ]
    : postgres
      ? ['drop trigger refuse_batch on control_journal_batches', 'drop function refuse_batch()']
      : ['drop trigger refuse_batch']
  for (const statement of statements) await sql.raw(statement).execute(db)
}

const batchRows = (db: Db) =>
  db.selectFrom('control_journal_batches').select(['first_id', 'entries']).orderBy('first_id').execute()

/** An API request to the app (its own journal records it). */
type Api = (options: InjectOptions) => Promise<{ statusCode: number; body: string }>

/** The behaviour of batches, on an app whose writer writes from this thread or from its worker. */
function batchBehaviour(
  app: () => { db: Db; clock: AdjustableClock; admin: Admin; log: FastifyBaseLogger; api: Api },
) {
  const writers: JournalWriter[] = []
  // Each test's writer stops with it, also when the test fails.
  afterEach(async () => {
    for (const writer of writers.splice(0)) await writer.close()
  })
  const writerOf = (limits: Partial<JournalLimits> = {}) => {
    const { db, clock, log } = app()
    const writer = new JournalWriter(db, clock, log, limits)
    writers.push(writer)
    return writer
  }
  it('stores each batch as one row, its entries numbered in order; a clear hands no id out again', async () => {
    const { db, clock, admin } = app()
    await admin('DELETE', '/journal')
    const writer = writerOf()
    const now = clock.now().getTime()
    const sizes = [3, 1, 4]
    const listed = await writeBatches(
      writer,
      admin,
      '/v4/numbered/',
      sizes.map((n, b) => Array.from({ length: n }, (_, i) => entry(`/v4/numbered/${b}-${i}`, now))),
    )
    const written = sizes.flatMap((n, b) => Array.from({ length: n }, (_, i) => `/v4/numbered/${b}-${i}`))
    assert.deepEqual(
      listed.map((e) => e.path),
      written.reverse(),
    )
    const ids = listed.map((e) => e.id)
    assert.deepEqual(
      ids,
      ids.map((_, i) => (ids[0] as number) - i),
    )
    assert.deepEqual(
      (await batchRows(db)).map((b) => Number(b.entries)),
      sizes,
    )
    const last = ids[0] as number
    assert.equal((await admin('DELETE', '/journal')).body.deleted, 8)
    assert.equal((await batchRows(db)).length, 0)
    const after = await writeBatches(writer, admin, '/v4/numbered/', [[entry('/v4/numbered/again', now)]])
    assert.deepEqual(
      after.map((e) => [e.id, e.path]),
      [[last + 1, '/v4/numbered/again']],
    )
    const curl = await admin('GET', `/journal/${last + 1}/curl`)
    assert.equal(curl.status, 200)
    assert.equal((await admin('GET', `/journal/${last}/curl`)).status, 404)
  })

  it('trims the ring by whole batches: by count, and by age once a batch holds no entry young enough', async () => {
    const { db, clock, admin } = app()
    await admin('DELETE', '/journal')
    const writer = writerOf({ maxEntries: 5, maxAgeMs: 3600_000 })
    const now = clock.now().getTime()
    const old = now - 2 * 3600_000
    const batch = (b: number, times: number[]) => times.map((t, i) => entry(`/v4/trim/${b}-${i}`, t))
    // All too old; old and new together; then batches of three until the count trims.
    const listed = await writeBatches(writer, admin, '/v4/trim/', [
      batch(0, [old, old]),
      batch(1, [old, now]),
      batch(2, [now, now, now]),
    ])
    assert.deepEqual(
      listed.map((e) => e.path),
      ['/v4/trim/2-2', '/v4/trim/2-1', '/v4/trim/2-0', '/v4/trim/1-1', '/v4/trim/1-0'],
    )
    // Batch 1 has 3 newer entries (fewer than 5): kept; batch 2 after two more batches is not.
    const trimmed = await writeBatches(writer, admin, '/v4/trim/', [
      batch(3, [now, now, now]),
      batch(4, [now, now]),
    ])
    assert.deepEqual(
      trimmed.map((e) => e.path),
      ['/v4/trim/4-1', '/v4/trim/4-0', '/v4/trim/3-2', '/v4/trim/3-1', '/v4/trim/3-0'],
    )
    assert.deepEqual(
      (await batchRows(db)).map((b) => Number(b.entries)),
      [3, 2],
    )
    // A batch whose newer ones hold fewer entries than the ring is kept whole.
    const whole = await writeBatches(writer, admin, '/v4/trim/', [batch(5, [now])])
    assert.equal(whole.length, 6)
  })

  it('stores a body met again once, redacted as the first time, in each batch that names it, after a clear too', async () => {
    const { db, admin, api } = app()
    await admin('DELETE', '/journal')
    const put = (password: string) =>
      api({
        method: 'PUT',
        url: '/v4/profile',
        headers: { ...bootstrapHeaders, 'content-type': 'application/json' },
        payload: `{"timezone":"US/Eastern","password":"${password}"}`,
      })
    const round = async () => {
      const answers = new Set<string>()
      for (let i = 0; i < 3; i++)
        answers.add((await api({ url: '/v4/profile', headers: bootstrapHeaders })).body)
      // The same bytes twice, then bytes that differ only in a secret: one body, redacted.
      await put('hunter2')
      await put('hunter2')
      await put('hunter3')
      const listed = (await admin('GET', '/journal?path=/v4/profile&page_size=500')).body.data as Array<
        Listed & { method: string; request_body: unknown }
      >
      assert.equal(listed.length, 6)
      const [profile] = [...answers]
      assert.equal(answers.size, 1)
      for (const e of listed.filter((e) => e.method === 'GET')) {
        assert.deepEqual(e.response_body, JSON.parse(profile as string))
      }
      for (const e of listed.filter((e) => e.method === 'PUT')) {
        assert.deepEqual(e.request_body, { timezone: 'US/Eastern', password: '[redacted]' })
        assert.notEqual(e.response_body, null)
      }
      const stored = (await db.selectFrom('control_journal_bodies').select('body').execute()).map(
        (b) => b.body,
      )
      assert.ok(!stored.some((b) => b.includes('hunter')))
      const named = new Set(
        listed.flatMap((e) => [e.request_body, e.response_body].map((b) => JSON.stringify(b))),
      )
      named.delete('null')
      assert.equal(stored.length, named.size)
    }
    await round()
    // A clear removes the bodies: the same bytes met again must be stored again.
    await admin('DELETE', '/journal')
    assert.equal((await db.selectFrom('control_journal_bodies').select('body').execute()).length, 0)
    await round()
  })

  it('counts the entries of a batch whose write failed as dropped', async () => {
    const { db, admin } = app()
    await admin('DELETE', '/journal')
    const writer = writerOf()
    await refuseBatches(db, 'insert', true)
    try {
      writer.push(entry('/v4/failed-batch/lost', 1))
      writer.push(entry('/v4/failed-batch/lost', 2))
      await writer.flush()
    } finally {
      await refuseBatches(db, 'insert', false)
    }
    const listed = await writeBatches(writer, admin, '/v4/failed-batch/', [
      [entry('/v4/failed-batch/kept', 3)],
    ])
    assert.deepEqual(
      listed.map((e) => e.path),
      ['/v4/failed-batch/kept'],
    )
    assert.equal((await admin('GET', '/journal')).body.dropped, 2)
  })

  it('does not count a batch stored as dropped when the trim after it fails', async () => {
    const { db, clock, admin } = app()
    await admin('DELETE', '/journal')
    // A trim after every batch.
    const writer = writerOf({ maxEntries: 1 })
    const now = clock.now().getTime()
    writer.push(entry('/v4/trim-failed/first', now))
    await writer.flush()
    await refuseBatches(db, 'delete', true)
    try {
      // Its trim would remove the first batch, and fails.
      writer.push(entry('/v4/trim-failed/second', now))
      await writer.flush()
    } finally {
      await refuseBatches(db, 'delete', false)
    }
    const listed = await writeBatches(writer, admin, '/v4/trim-failed/', [
      [entry('/v4/trim-failed/third', now)],
    ])
    assert.deepEqual(
      listed.map((e) => e.path),
      ['/v4/trim-failed/third'],
      'the next trim takes what the failed one left',
    )
    assert.equal((await admin('GET', '/journal')).body.dropped, 0)
  })

  it('removes the bodies that only trimmed batches named', async () => {
    const { db, clock, admin } = app()
    await admin('DELETE', '/journal')
    const writer = writerOf({ maxEntries: 2, maxAgeMs: 3600_000 })
    const now = clock.now().getTime()
    for (let i = 0; i < 6; i++) {
      writer.push(entry(`/v4/trimmed-bodies/${i}`, now, JSON.stringify({ own: i })))
      writer.push(entry(`/v4/trimmed-bodies/${i}`, now, '{"shared":true}'))
      await writer.flush()
    }
    const listed = (await admin('GET', '/journal?path=/v4/trimmed-bodies/')).body.data as Listed[]
    assert.deepEqual(
      listed.map((e) => e.response_body),
      [{ shared: true }, { own: 5 }],
    )
    const stored = (await db.selectFrom('control_journal_bodies').select('body').execute()).map((b) => b.body)
    assert.deepEqual(stored.sort(), ['{"own":5}', '{"shared":true}'])
  })
}

describe('the request journal by batch, written from the request thread (or PostgreSQL’s worker)', () => {
  const api = useControlApp()
  batchBehaviour(() => ({
    db: api.db,
    clock: api.clock,
    admin: api.admin,
    log: api.app.log,
    api: (options) => api.app.inject(options),
  }))
})

describe('the request journal by batch, written by its worker on a database file', () => {
  let dir: string | undefined
  let db: Db | undefined
  let app: Awaited<ReturnType<typeof buildApp>> | undefined
  let drop: () => Promise<void> = async () => {}
  const clock = new AdjustableClock()
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-journal-batches-'))
    const database = await processDatabase(dir)
    drop = database.drop
    db = database.open()
    await prepareDatabase(db, clock, { defaultAccount: true, bootstrapToken: BOOTSTRAP_TOKEN })
    await ensureAdminKey(db, ADMIN_KEY)
    app = await buildApp({ db, clock, control: true })
    await app.ready()
  })
  after(async () => {
    await app?.close()
    await db?.destroy()
    await drop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })
  const admin: Admin = async (method, url) => {
    const res = await (app as NonNullable<typeof app>).inject({
      method,
      url: `/_cloudplane${url}`,
      headers: adminHeaders,
    })
    const json = String(res.headers['content-type'] ?? '').includes('json')
    return { status: res.statusCode, body: json ? JSON.parse(res.body) : res.body }
  }
  batchBehaviour(() => {
    const built = app as NonNullable<typeof app>
    return { db: db as Db, clock, admin, log: built.log, api: (options) => built.inject(options) }
  })
})

describe('the migration to batches', () => {
  it('moves the entries journalled before it to batches of one, ids and all, and numbers new ones after every id handed out', async () => {
    const database = await createTestDatabase()
    const clock = new AdjustableClock()
    try {
      const db = database.db
      assert.equal((await migrateTo(database, '2026_11_26_1505_image_list_order')).error, undefined)
      // biome-ignore lint/suspicious/noExplicitAny: the table as it was before this migration
      const old = db as unknown as Kysely<any>
      await old.insertInto('control_journal_bodies').values({ digest: 'd1', body: '{"label":"a"}' }).execute()
      const row = (i: number) => ({
        at_ms: 1000 + i,
        real_ms: Date.now(),
        process: 'old',
        method: 'POST',
        path: `/v4/old/${i}`,
        query: `q=${i}`,
        status: i === 2 ? null : 200,
        duration_ms: 1.5,
        account_id: i,
        user_id: 10 + i,
        token_id: 20 + i,
        request_digest: i === 1 ? 'd1' : null,
        response_digest: null,
        fault_rule: i === 2 ? 7 : null,
        outcome: i === 2 ? 'dropped' : null,
      })
      await old
        .insertInto('control_journal')
        .values([row(1), row(2), row(3)])
        .execute()
      // The newest is gone: its id was handed out all the same.
      await old.deleteFrom('control_journal').where('path', '=', '/v4/old/3').execute()
      await migrateToLatest(db)
      await prepareDatabase(db, clock, { defaultAccount: true, bootstrapToken: BOOTSTRAP_TOKEN })
      await ensureAdminKey(db, ADMIN_KEY)
      const app = await buildApp({ db, clock, control: true })
      try {
        const list = async () =>
          JSON.parse(
            (
              await app.inject({
                method: 'GET',
                url: '/_cloudplane/journal?page_size=500',
                headers: adminHeaders,
              })
            ).body,
          ).data as Array<Record<string, unknown>>
        const moved = (await list()).filter((e) => e.process === 'old')
        assert.deepEqual(
          moved.map((e) => [e.id, e.path, e.query, e.status, e.account_id, e.user_id, e.token_id]),
          [
            [2, '/v4/old/2', 'q=2', null, 2, 12, 22],
            [1, '/v4/old/1', 'q=1', 200, 1, 11, 21],
          ],
        )
        assert.deepEqual(
          moved.map((e) => [e.request_body, e.duration_ms, e.fault_rule, e.outcome]),
          [
            [null, 1.5, 7, 'dropped'],
            [{ label: 'a' }, 1.5, null, null],
          ],
        )
        const writer = new JournalWriter(db, clock, app.log)
        writer.push(entry('/v4/new', clock.now().getTime()))
        await writer.close()
        const [newest] = await list()
        assert.equal(newest?.path, '/v4/new')
        assert.equal(newest?.id, 4)
      } finally {
        await app.close()
      }
    } finally {
      await database.db.destroy()
      await database.drop()
    }
  })
})
