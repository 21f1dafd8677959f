import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import pg from 'pg'
import { testDialect, testPostgresUrl } from './helpers/dialects.ts'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from './helpers/processes.ts'
import { waitFor } from './helpers/wait-for.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

const onPostgres = testDialect() === 'postgres'

/**
 * Two API processes on one database (a SQLite file, or a PostgreSQL schema), each keeping its
 * token cache and its rendered catalogues: a change made through one process, or by the CLI,
 * holds on the other from the very next request; on PostgreSQL a catalogue change made elsewhere
 * shows once its announcement arrives (docs/decisions.md), while a token revoke is still exact.
 */
describe('caches of two API processes on one database', () => {
  let dir: string
  let database: ProcessDatabase
  let env: Record<string, string>
  let servers: [ServerProcess, ServerProcess]
  const admin = randomBytes(32).toString('hex')
  // Names the processes' PostgreSQL connections, so that only theirs are cut.
  const applicationName = `cloudplane_caches_${randomBytes(4).toString('hex')}`

  /** Another process's catalogue change: on the next request on SQLite, moments later on PostgreSQL. */
  const shows = async (check: () => Promise<boolean>, what: string) => {
    if (onPostgres) await waitFor(check, { timeout: 5000, message: what })
    else assert.ok(await check(), what)
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-caches-'))
    database = await processDatabase(dir)
    const { DATA_DIR: _d, DATABASE_URL: _u, PORT: _p, ...rest } = process.env
    const url = new URL(database.url)
    if (onPostgres) url.searchParams.set('application_name', applicationName)
    env = {
      ...(rest as Record<string, string>),
      LOG_LEVEL: 'warn',
      DATA_DIR: dir,
      DATABASE_URL: onPostgres ? url.toString() : database.url,
      CLOUDPLANE_BOOTSTRAP_TOKEN: admin,
    }
    // One after the other: the first creates the database, the second finds it.
    const first = await startServerProcess(env)
    servers = [first, await startServerProcess(env)]
  })

  after(async () => {
    await Promise.all((servers ?? []).map((s) => s.stop()))
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  const call = (server: ServerProcess, token: string, method: string, path: string, body?: unknown) =>
    fetch(`${server.baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      ...(body !== undefined && { body: JSON.stringify(body) }),
    })

  it('a token revoked through one process is refused by both from the revoke answer on', async () => {
    const [first, second] = servers
    for (let round = 0; round < 5; round++) {
      const created = await call(first, admin, 'POST', '/v4/profile/tokens', { label: `round-${round}` })
      assert.equal(created.status, 200)
      const { id, token } = (await created.json()) as { id: number; token: string }
      // Both processes have now looked the token up (and keep it in their caches).
      for (const server of [first, second, first, second]) {
        assert.equal((await call(server, token, 'GET', '/v4/profile')).status, 200)
      }
      const revoker = round % 2 === 0 ? first : second
      assert.equal((await call(revoker, admin, 'DELETE', `/v4/profile/tokens/${id}`)).status, 200)
      assert.equal((await call(second, token, 'GET', '/v4/profile')).status, 401)
      assert.equal((await call(first, token, 'GET', '/v4/profile')).status, 401)
    }
  })

  it('kept VPC pages and VPCs show a change made through the other process at once, and refuse a revoked token', async () => {
    const [first, second] = servers
    const created = await call(first, admin, 'POST', '/v4/profile/tokens', { label: 'vpc-pages' })
    const { id: tokenId, token } = (await created.json()) as { id: number; token: string }
    const labels = async (server: ServerProcess) => {
      const res = await call(server, token, 'GET', '/v4/vpcs')
      assert.equal(res.status, 200)
      return ((await res.json()) as { data: Array<{ label: string }> }).data.map((v) => v.label).sort()
    }
    const before = [await labels(first), await labels(second)]
    assert.deepEqual(before[0], before[1])
    for (const [writer, reader] of [
      [first, second],
      [second, first],
    ] as const) {
      const label = `across-${randomBytes(3).toString('hex')}`
      const vpc = await call(writer, token, 'POST', '/v4/vpcs', { label, region: 'us-iad' })
      assert.equal(vpc.status, 200)
      assert.ok((await labels(reader)).includes(label), `${label} on the other process`)
      assert.ok((await labels(writer)).includes(label), `${label} on the writer`)
      const { id } = (await vpc.json()) as { id: number }
      const one = async (server: ServerProcess) =>
        ((await (await call(server, token, 'GET', `/v4/vpcs/${id}`)).json()) as { label: string }).label
      assert.equal(await one(reader), label)
      assert.equal((await call(writer, token, 'PUT', `/v4/vpcs/${id}`, { label: `${label}-b` })).status, 200)
      assert.equal(await one(reader), `${label}-b`)
    }
    assert.equal((await call(second, admin, 'DELETE', `/v4/profile/tokens/${tokenId}`)).status, 200)
    assert.equal((await call(first, token, 'GET', '/v4/vpcs')).status, 401)
    assert.equal((await call(second, token, 'GET', '/v4/vpcs')).status, 401)
    assert.equal((await call(first, token, 'GET', '/v4/vpcs/1')).status, 401)
    assert.equal((await call(second, token, 'GET', '/v4/vpcs/1')).status, 401)
  })

  it('kept event pages show an event and a mark made through the other process at once, and refuse a revoked token', async () => {
    const [first, second] = servers
    const created = await call(first, admin, 'POST', '/v4/profile/tokens', { label: 'event-pages' })
    const { id: tokenId, token } = (await created.json()) as { id: number; token: string }
    type Page = { data: Array<{ id: number; action: string; seen: boolean; entity: { label: string } }> }
    const newest = async (server: ServerProcess) => {
      const res = await call(server, token, 'GET', '/v4/account/events')
      assert.equal(res.status, 200)
      return ((await res.json()) as Page).data[0]
    }
    for (const [writer, reader] of [
      [first, second],
      [second, first],
    ] as const) {
      // Both processes keep the page as it is now.
      await newest(reader)
      await newest(writer)
      const label = `events-${randomBytes(3).toString('hex')}`
      assert.equal((await call(writer, token, 'POST', '/v4/vpcs', { label, region: 'us-iad' })).status, 200)
      const event = await newest(reader)
      assert.equal(event?.entity.label, label, 'the new event on the other process')
      assert.equal(event?.seen, false)
      assert.equal((await call(writer, token, 'POST', `/v4/account/events/${event?.id}/seen`)).status, 200)
      assert.equal((await newest(reader))?.seen, true, 'the mark on the other process')
    }
    assert.equal((await call(second, admin, 'DELETE', `/v4/profile/tokens/${tokenId}`)).status, 200)
    assert.equal((await call(first, token, 'GET', '/v4/account/events')).status, 401)
    assert.equal((await call(second, token, 'GET', '/v4/account/events')).status, 401)
  })

  it('a region marked down by the CLI shows in both processes on the next request, and back up', async () => {
    const regionStatus = async (server: ServerProcess, id: string) => {
      const list = (await (await fetch(`${server.baseUrl}/v4/regions`)).json()) as {
        data: Array<{ id: string; status: string }>
      }
      const one = (await (await fetch(`${server.baseUrl}/v4/regions/${id}`)).json()) as { status: string }
      return [list.data.find((r) => r.id === id)?.status, one.status]
    }
    const listed = (await (await fetch(`${servers[0].baseUrl}/v4/regions`)).json()) as {
      data: Array<{ id: string }>
    }
    const id = listed.data[0]?.id as string
    for (const status of ['outage', 'ok']) {
      // Rendered (and kept) by both before the change.
      for (const server of servers) await regionStatus(server, id)
      const cli = spawnSync(process.execPath, [CLI, 'region', 'status', id, status], {
        env,
        encoding: 'utf8',
      })
      assert.equal(cli.status, 0, cli.stderr)
      for (const server of servers) {
        await shows(
          async () => (await regionStatus(server, id)).every((s) => s === status),
          `region ${id} ${status} on ${server.baseUrl}`,
        )
      }
    }
  })

  it('a public image withdrawn in the database leaves the image list without a token in both processes', async () => {
    const publicIds = async (server: ServerProcess) => {
      const res = await fetch(`${server.baseUrl}/v4/images?page_size=500`)
      assert.equal(res.status, 200)
      return ((await res.json()) as { data: Array<{ id: string }> }).data.map((i) => i.id)
    }
    const before = await publicIds(servers[0])
    assert.deepEqual(await publicIds(servers[1]), before)
    const withdrawn = before[0] as string
    const db = database.open()
    try {
      // As an operator's SQL client would: no cloudplane code in between.
      await db.updateTable('images').set({ is_public: false }).where('slug', '=', withdrawn).execute()
    } finally {
      await db.destroy()
    }
    const expected = JSON.stringify(before.filter((id) => id !== withdrawn))
    for (const server of servers) {
      await shows(async () => JSON.stringify(await publicIds(server)) === expected, `${withdrawn} withdrawn`)
    }
  })

  it('a catalogue change made while the processes had lost their connections still shows', {
    skip: !onPostgres && 'PostgreSQL only: announcements made while nobody listens are lost',
  }, async () => {
    const statusOf = async (server: ServerProcess, id: string) =>
      ((await (await fetch(`${server.baseUrl}/v4/regions/${id}`)).json()) as { status: string }).status
    const id = 'us-ord'
    const client = new pg.Client({ connectionString: testPostgresUrl() })
    await client.connect()
    const db = database.open()
    try {
      for (const status of ['outage', 'ok']) {
        // Rendered and kept by both, with their listeners up.
        for (const server of servers) await statusOf(server, id)
        const cut = await client.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
          [applicationName],
        )
        assert.ok((cut.rowCount ?? 0) > 0, 'the processes had connections to cut')
        // No listener hears this: each must read the counter again before it trusts its copy.
        await db.updateTable('regions').set({ status }).where('id', '=', id).execute()
        for (const server of servers) {
          await shows(
            async () => (await statusOf(server, id)) === status,
            `${id} ${status} on ${server.baseUrl}`,
          )
        }
      }
    } finally {
      await db.destroy()
      await client.end()
    }
  })
})
