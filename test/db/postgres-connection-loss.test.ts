import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import pg from 'pg'
import { createTestDatabase, type TestDatabase, testPostgresUrl } from '../helpers/dialects.ts'
import { postgresUrlForSchema, type ServerProcess, startServerProcess } from '../helpers/processes.ts'
import { waitFor } from '../helpers/wait-for.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

/**
 * What a failover or a server restart does to a running API process: every connection of its pool
 * is cut while requests are using them. The process must keep serving.
 */
describe('PostgreSQL connections cut under load', { skip: !onPostgres && 'PostgreSQL run only' }, () => {
  let database: TestDatabase
  let server: ServerProcess
  let admin: pg.Client
  const token = randomBytes(32).toString('hex')
  // Names this server's connections, so only they are terminated (other tests share the database).
  const applicationName = `cloudplane_fault_${randomBytes(4).toString('hex')}`

  before(async () => {
    database = await createTestDatabase()
    await database.db.destroy()
    const url = new URL(postgresUrlForSchema(testPostgresUrl(), database.schema as string))
    url.searchParams.set('application_name', applicationName)
    server = await startServerProcess({ DATABASE_URL: url.toString(), CLOUDPLANE_BOOTSTRAP_TOKEN: token })
    admin = new pg.Client({ connectionString: testPostgresUrl() })
    await admin.connect()
  })

  after(async () => {
    await server?.stop()
    await admin?.end()
    await database?.drop()
  })

  const headers = { authorization: `Bearer ${token}` }
  const READS = ['/v4/profile', '/v4/account/events', '/v4/account/users', '/v4/vpcs']

  /** A read's status, or `dropped` when the connection was closed without an answer. */
  const read = async (path: string): Promise<number | 'dropped'> => {
    try {
      const res = await fetch(`${server.baseUrl}${path}`, { headers })
      const body = (await res.json()) as { errors?: { reason: string }[] }
      if (res.status === 503) {
        assert.ok(res.headers.get('retry-after'), 'a 503 says when to retry')
        assert.ok(body.errors?.[0]?.reason, 'a 503 carries a reason')
      }
      return res.status
    } catch {
      return 'dropped'
    }
  }

  const terminateBackends = async (): Promise<number> => {
    const result = await admin.query(
      'select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1',
      [applicationName],
    )
    return result.rowCount ?? 0
  }

  it('answers reads in flight with 200 or 503, survives, and serves again', async () => {
    let terminated = 0
    const statuses: string[] = []
    for (let round = 0; round < 8; round++) {
      const inFlight = Array.from({ length: 40 }, async (_, i) => {
        const path = READS[i % READS.length] as string
        return `${path} ${await read(path)}`
      })
      // Cut while the reads are queued on and running over the pool's connections.
      await new Promise((resolve) => setImmediate(resolve))
      terminated += await terminateBackends()
      statuses.push(...(await Promise.all(inFlight)))
    }
    assert.ok(terminated > 0, 'the server had connections to cut')
    assert.equal(server.child.exitCode, null, `the process is still running: ${server.output()}`)
    assert.deepEqual(
      statuses.filter((s) => !/ (200|503)$/.test(s)),
      [],
      'every read in flight got 200 or 503',
    )
    await waitFor(async () => (await read('/v4/profile')) === 200, {
      timeout: 10_000,
      interval: 50,
      message: () => `the pool to reconnect: ${server.output()}`,
    })
    for (const path of READS) assert.equal(await read(path), 200, path)
    assert.doesNotMatch(server.output(), /shutting down after an error/)
  })
})
