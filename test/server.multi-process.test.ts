import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { createDb, type Db } from '../src/db/connect.ts'
import { hashTokenSecret } from '../src/modules/auth/token-secret.ts'
import { createTestDatabase, type TestDatabase, testPostgresUrl } from './helpers/dialects.ts'
import { postgresUrlForSchema, type ServerProcess, startServerProcess } from './helpers/processes.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

describe('several API processes on one PostgreSQL database', {
  skip: !onPostgres && 'PostgreSQL run only',
}, () => {
  let database: TestDatabase
  let servers: ServerProcess[] = []
  let db: Db
  const token = randomBytes(32).toString('hex')

  before(async () => {
    // An empty schema: both processes race to migrate and seed it.
    database = await createTestDatabase()
    await database.db.destroy()
    const url = postgresUrlForSchema(testPostgresUrl(), database.schema as string)
    servers = await Promise.all(
      [1, 2].map(() => startServerProcess({ DATABASE_URL: url, CLOUDPLANE_BOOTSTRAP_TOKEN: token })),
    )
    db = createDb({ kind: 'postgres', location: testPostgresUrl(), schema: database.schema as string })
  })

  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    await db?.destroy()
    await database?.drop()
  })

  it('migrate and seed once: one default account, one bootstrap token, both ready', async () => {
    const accounts = await sql<{ n: number }>`select count(*) as n from accounts`.execute(db)
    assert.equal(Number(accounts.rows[0]?.n), 1)
    const tokens = await sql<{ n: number }>`select count(*) as n from tokens`.execute(db)
    assert.equal(Number(tokens.rows[0]?.n), 1)
    for (const server of servers) {
      const res = await fetch(`${server.baseUrl}/v4/profile`, {
        headers: { authorization: `Bearer ${token}` },
      })
      assert.equal(res.status, 200)
      assert.equal(((await res.json()) as { username: string }).username, 'admin')
      assert.doesNotMatch(server.output(), new RegExp(token), 'a configured token is never printed')
    }
  })

  it('a token revoked in the database fails on the very next request to every process', async () => {
    const [first, second] = servers as [ServerProcess, ServerProcess]
    const secret = randomBytes(32).toString('hex')
    const user = await db.selectFrom('users').select('id').executeTakeFirstOrThrow()
    await db
      .insertInto('tokens')
      .values({
        user_id: user.id,
        authorized_app_id: null,
        label: 'short-lived',
        scopes: '*',
        token_hash: hashTokenSecret(secret),
        token_prefix: secret.slice(0, 16),
        created: '2026-01-01T00:00:00',
        expiry: null,
      })
      .execute()
    const headers = { authorization: `Bearer ${secret}` }
    assert.equal((await fetch(`${first.baseUrl}/v4/profile`, { headers })).status, 200)
    assert.equal((await fetch(`${second.baseUrl}/v4/profile`, { headers })).status, 200)
    await db.deleteFrom('tokens').where('token_hash', '=', hashTokenSecret(secret)).execute()
    assert.equal((await fetch(`${first.baseUrl}/v4/profile`, { headers })).status, 401)
    assert.equal((await fetch(`${second.baseUrl}/v4/profile`, { headers })).status, 401)
  })
})
