import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Kysely } from 'kysely'
import type { Db } from '../../../src/db/connect.ts'
import { migrateToLatest } from '../../../src/db/migrate.ts'
import { findJournalRow } from '../../../src/modules/control/journal/journal.repository.ts'
import { ChunkWriter, readChunk } from '../../../src/modules/control/journal/journal-chunks.ts'
import { JournalWriter, type PendingEntry } from '../../../src/modules/control/journal/journal-writer.ts'
import { createTestDatabase } from '../../helpers/dialects.ts'
import { migrateTo } from '../../helpers/migrate-to.ts'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/processes.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { useControlApp } from './control-app.ts'
import { journalEntry } from './journal-entry.ts'

const entry = (i: number, responseBody: PendingEntry['responseBody'], atMs = Date.now()) =>
  journalEntry(`/v4/bodies/${i}`, atMs, responseBody)

const storedBodies = async (db: Db) => db.selectFrom('control_journal_bodies').select('body').execute()

interface Listed {
  path: string
  process: string
  response_body: unknown
  request_body: unknown
}

describe('the request journal stores each body once', () => {
  const api = useControlApp()
  const listed = async (query: string): Promise<Listed[]> => {
    const res = await api.admin('GET', `/journal${query}`)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body.data
  }

  it('keeps an object pushed many times aside once per chunk', () => {
    const cached = Buffer.from(JSON.stringify({ data: ['x'.repeat(5000)] }))
    const chunks = new ChunkWriter()
    for (let i = 0; i < 50; i++) chunks.add(entry(i, cached))
    const [chunk] = chunks.take()
    assert.equal(chunk?.side.length, 1)
    const read = readChunk(chunk as NonNullable<typeof chunk>)
    assert.equal(read.length, 50)
    for (const e of read) assert.equal(e.responseBody, cached)
  })

  it('stores the same body, as the same object or as equal text, once and reads it back with each entry', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log)
    const catalogue = { data: [{ id: 'us-iad', label: 'x'.repeat(4000) }], page: 1 }
    const cached = Buffer.from(JSON.stringify(catalogue))
    for (let i = 0; i < 30; i++) writer.push(entry(i, cached))
    // The same text as separate strings, short (in the chunk) and long (aside), across batches.
    for (let batch = 0; batch < 3; batch++) {
      for (let i = 0; i < 10; i++) writer.push(entry(100 + i, JSON.stringify(catalogue)))
      for (let i = 0; i < 10; i++) writer.push(entry(200 + i, `{"short":${JSON.stringify('s'.repeat(10))}}`))
      await writer.flush()
    }
    await writer.close()
    const entries = await listed('?path=/v4/bodies/&page_size=500')
    assert.equal(entries.length, 90)
    for (const e of entries) {
      assert.deepEqual(
        e.response_body,
        Number(e.path.split('/').at(-1)) >= 200 ? { short: 'ssssssssss' } : catalogue,
      )
    }
    assert.equal((await storedBodies(api.db)).length, 2)
  })

  it('stores a different body per entry, each read back with its own entry', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log)
    for (let i = 0; i < 40; i++) {
      const body =
        i % 2 === 0 ? JSON.stringify({ n: i }) : Buffer.from(JSON.stringify({ n: i, pad: 'p'.repeat(3000) }))
      writer.push({ ...entry(i, body), requestBody: JSON.stringify({ asked: i }) })
    }
    await writer.close()
    const entries = await listed('?path=/v4/bodies/&page_size=100')
    assert.equal(entries.length, 40)
    for (const e of entries) {
      const i = Number(e.path.split('/').at(-1))
      assert.equal((e.response_body as { n: number }).n, i)
      assert.deepEqual(e.request_body, { asked: i })
    }
    assert.equal((await storedBodies(api.db)).length, 80)
    const curl = await api.admin(
      'GET',
      `/journal/${(await api.admin('GET', '/journal?path=/v4/bodies/7')).body.data[0].id}/curl`,
    )
    assert.match(curl.raw.body, /--data '\{"asked":7\}'/)
  })

  it('redacts a body stored once as it would each copy', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log)
    const secret = Buffer.from(
      JSON.stringify({ token: 'never-stored-1', label: 'kept', pad: 'q'.repeat(3000) }),
    )
    for (let i = 0; i < 25; i++) writer.push(entry(i, secret))
    for (let i = 0; i < 25; i++) writer.push(entry(50 + i, '{"root_pass":"never-stored-2","label":"kept"}'))
    await writer.close()
    for (const e of await listed('?path=/v4/bodies/&page_size=100')) {
      const body = e.response_body as { token?: string; root_pass?: string; label: string }
      assert.equal(body.label, 'kept')
      assert.equal(body.token ?? body.root_pass, '[redacted]')
    }
    const stored = await storedBodies(api.db)
    assert.equal(stored.length, 2)
    const text = JSON.stringify(stored)
    assert.ok(!text.includes('never-stored-1') && !text.includes('never-stored-2'))
  })

  it('removes the bodies no entry names once a ring of entries has been written since it last did, and all when cleared', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log, { maxEntries: 4, maxAgeMs: 3600_000 })
    const shared = Buffer.from('{"shared":true}')
    for (let i = 0; i < 12; i++) {
      writer.push(entry(i, i % 3 === 0 ? shared : JSON.stringify({ own: i })))
      await writer.flush()
    }
    await writer.close()
    const entries = await listed('?path=/v4/bodies/')
    assert.deepEqual(
      entries.map((e) => e.response_body),
      [{ own: 11 }, { own: 10 }, { shared: true }, { own: 8 }],
    )
    const stored = (await storedBodies(api.db))
      .map((b) => JSON.parse(b.body))
      .sort((a, b) => (a.own ?? -1) - (b.own ?? -1))
    assert.deepEqual(stored, [{ shared: true }, { own: 8 }, { own: 10 }, { own: 11 }])
    await api.admin('DELETE', '/journal')
    assert.equal((await storedBodies(api.db)).length, 0)
  })
})

describe('the request journal stores each body once across processes', () => {
  const ADMIN_KEY = 'bodies-admin-key-0123456789abcd'
  const TOKEN = 'e3'.repeat(32)
  let dir: string | undefined
  let database: ProcessDatabase | undefined
  let db: Db | undefined
  const servers: ServerProcess[] = []
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-journal-bodies-'))
    database = await processDatabase(dir)
    const env = {
      CLOUDPLANE_CONTROL: 'on',
      CLOUDPLANE_ADMIN_KEY: ADMIN_KEY,
      CLOUDPLANE_BOOTSTRAP_TOKEN: TOKEN,
      DATABASE_URL: database.url,
      DATA_DIR: dir,
    }
    servers.push(await startServerProcess(env))
    servers.push(await startServerProcess(env))
    db = database.open()
  })
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await db?.destroy()
    await database?.drop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })

  it('two processes answering the same catalogue store its body once', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess]
    const admin = { 'x-cloudplane-admin-key': ADMIN_KEY }
    assert.equal(
      (await fetch(`${first.baseUrl}/_cloudplane/journal`, { method: 'DELETE', headers: admin })).status,
      200,
    )
    const regions = await (await fetch(`${first.baseUrl}/v4/regions`)).text()
    for (let i = 0; i < 20; i++) {
      await Promise.all(
        [fetch(`${first.baseUrl}/v4/regions`), fetch(`${second.baseUrl}/v4/regions`)].map(async (r) =>
          (await r).text(),
        ),
      )
    }
    const entries = await waitFor(
      async () => {
        const res = await fetch(`${second.baseUrl}/_cloudplane/journal?path=/v4/regions&page_size=100`, {
          headers: admin,
        })
        const body = (await res.json()) as { data: Listed[] }
        return body.data.length === 41 ? body.data : undefined
      },
      { timeout: 10_000, interval: 100, message: 'both processes’ entries in the journal' },
    )
    assert.equal(new Set(entries.map((e) => e.process)).size, 2)
    for (const e of entries) assert.deepEqual(e.response_body, JSON.parse(regions))
    const stored = await (db as Db).selectFrom('control_journal_bodies').select('body').execute()
    assert.equal(stored.filter((b) => b.body === regions).length, 1)
    assert.equal(stored.length, 1)
  })
})

describe('the migration to bodies stored once', () => {
  it('moves the bodies journalled before it to the bodies table, each read back with its entry', async () => {
    const database = await createTestDatabase()
    try {
      const db = database.db
      const before = await migrateTo(database, '2026_11_23_0804_journal_outcome')
      assert.equal(before.error, undefined)
      // biome-ignore lint/suspicious/noExplicitAny: the table as it was before this migration
      const old = db as unknown as Kysely<any>
      const row = (i: number, request: string | null, response: string | null) => ({
        at_ms: 1000 + i,
        real_ms: 1000 + i,
        process: '1',
        method: 'POST',
        path: `/v4/old/${i}`,
        query: '',
        status: 200,
        duration_ms: 1,
        request_body: request,
        response_body: response,
      })
      await old
        .insertInto('control_journal')
        .values([row(1, '{"label":"a"}', '{"id":1}'), row(2, null, '{"id":1}'), row(3, null, null)])
        .execute()
      await migrateToLatest(db)
      const read = async (i: number) => {
        const id = (
          await db
            .selectFrom('control_journal')
            .select('id')
            .where('path', '=', `/v4/old/${i}`)
            .executeTakeFirstOrThrow()
        ).id
        const found = await findJournalRow(db, Number(id), 0)
        return [found?.request_body, found?.response_body]
      }
      assert.deepEqual(await read(1), ['{"label":"a"}', '{"id":1}'])
      assert.deepEqual(await read(2), [null, '{"id":1}'])
      assert.deepEqual(await read(3), [null, null])
      assert.equal((await db.selectFrom('control_journal_bodies').select('digest').execute()).length, 3)
    } finally {
      await database.db.destroy()
      await database.drop()
    }
  })
})
