import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createTestDatabase, type TestDatabase, testDialect, testPostgresUrl } from './helpers/dialects.ts'
import { postgresUrlForSchema, type ServerProcess, startServerProcess } from './helpers/processes.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))

describe('the cloudplane command', () => {
  let dir: string
  let database: TestDatabase | undefined
  let env: Record<string, string>
  let server: ServerProcess

  const run = (args: string[], extra: Record<string, string> = {}) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, ...env, ...extra },
      encoding: 'utf8',
    })

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-cli-'))
    env = { DATA_DIR: dir, LOG_LEVEL: 'warn' }
    if (testDialect() === 'postgres') {
      database = await createTestDatabase()
      await database.db.destroy()
      env.DATABASE_URL = postgresUrlForSchema(testPostgresUrl(), database.schema as string)
    }
    server = await startServerProcess(env)
  })
  after(async () => {
    await server?.stop()
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('account create makes a separate account and prints only its * token on stdout', async () => {
    const result = run(['account', 'create', '--username', 'ci-runner-1', '--email', 'ci@example.com'])
    assert.equal(result.status, 0, result.stderr)
    const token = result.stdout.trim()
    assert.match(token, /^[0-9a-f]{64}$/)
    const res = await fetch(`${server.baseUrl}/v4/profile`, { headers: { authorization: `Bearer ${token}` } })
    assert.equal(res.status, 200, 'the running server sees an account created by the command')
    const profile = (await res.json()) as { username: string; restricted: boolean }
    assert.equal(profile.username, 'ci-runner-1')
    assert.equal(profile.restricted, false)
    const users = await fetch(`${server.baseUrl}/v4/account/users`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(
      ((await users.json()) as { results: number }).results,
      1,
      'a new account sees only its own users',
    )
    const again = run(['account', 'create', '--username', 'ci-runner-1', '--email', 'ci@example.com'])
    assert.equal(again.status, 1)
    assert.match(again.stderr, /Username taken/)
  })

  it('token create issues a token for any user, with scopes and expiry', async () => {
    const created = run(['account', 'create', '--username', 'ci-runner-2', '--email', 'ci2@example.com'])
    assert.equal(created.status, 0, created.stderr)
    const result = run([
      'token',
      'create',
      '--user',
      'ci-runner-2',
      '--scopes',
      'events:read_only',
      '--expiry',
      '2999-01-01T00:00:00',
    ])
    assert.equal(result.status, 0, result.stderr)
    const token = result.stdout.trim()
    const events = await fetch(`${server.baseUrl}/v4/account/events`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(events.status, 200)
    assert.equal(events.headers.get('x-oauth-scopes'), 'events:read_only')
    const users = await fetch(`${server.baseUrl}/v4/account/users`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(users.status, 401, 'the token holds only the scopes asked for')
  })

  it('refuses bad arguments with one line and exit code 2', () => {
    const cases: string[][] = [
      ['token', 'create'],
      ['token', 'create', '--user', 'nobody-here'],
      ['token', 'create', '--user', 'x', '--scopes', 'vpc:admin'],
      ['token', 'create', '--user', 'x', '--expiry', 'tomorrow'],
      ['account', 'create', '--username', 'a'],
      ['frobnicate'],
    ]
    for (const args of cases) {
      const result = run(args)
      assert.equal(result.status, args[2] === '--user' && args[3] === 'nobody-here' ? 2 : 2, args.join(' '))
      assert.match(result.stderr, /^cloudplane: /, args.join(' '))
      assert.equal(result.stdout, '')
    }
  })

  it('an invalid setting stops start-up with one line naming it', () => {
    const result = run(['serve'], { PORT: 'eighty' })
    assert.equal(result.status, 2)
    assert.equal(
      result.stderr
        .trim()
        .split('\n')
        .filter((l) => l.startsWith('cloudplane:')).length,
      1,
    )
    assert.match(result.stderr, /^cloudplane: PORT: must be a port number/m)
    const flag = run(['serve', '--log-level', 'loud'])
    assert.equal(flag.status, 2)
    assert.match(flag.stderr, /LOG_LEVEL/)
  })

  it('migrate works against the database a server is using', () => {
    const result = run(['migrate'])
    assert.equal(result.status, 0, result.stderr)
  })
})
