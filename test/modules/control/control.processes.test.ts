import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { formatTimestamp } from '../../../src/common/time.ts'
import { createTestDatabase, testDialect, testPostgresUrl } from '../../helpers/dialects.ts'
import {
  postgresUrlForSchema,
  processDatabase,
  type ServerProcess,
  startServerProcess,
  useServerPair,
} from '../../helpers/processes.ts'

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))
const ADMIN_KEY = 'processes-admin-key-0123456789'
const SEEDED_TOKEN = 'c1'.repeat(32)
const admin = { 'x-cloudplane-admin-key': ADMIN_KEY }
const seeded = { authorization: `Bearer ${SEEDED_TOKEN}` }

/** Runs `cloudplane <args>`; resolves with its exit code and output. */
async function cli(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [CLI, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  })
  const out: Buffer[] = []
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => out.push(d))
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const [code] = await once(child, 'exit')
  const bytes = Buffer.concat(out)
  return { code: code as number, stdout: bytes.toString('utf8'), bytes, stderr }
}

describe('the controls with two API processes on one database', () => {
  const pair = useServerPair('cloudplane-control-', (dir) => {
    const seedFile = join(dir, 'seed.yaml')
    writeFileSync(
      seedFile,
      `accounts:\n  - users:\n      - username: ci-job\n        email: ci@example.com\n        tokens:\n          - token: "${SEEDED_TOKEN}"\n`,
    )
    return { CLOUDPLANE_CONTROL: 'on', CLOUDPLANE_ADMIN_KEY: ADMIN_KEY, CLOUDPLANE_SEED_FILE: seedFile }
  })

  it('the seed file given at start is loaded before ready; its token works on both processes', async () => {
    for (const server of pair.servers) {
      const res = await fetch(`${server.baseUrl}/v4/profile`, { headers: seeded })
      assert.equal(res.status, 200)
      assert.equal(((await res.json()) as { username: string }).username, 'ci-job')
    }
  })

  it('a clock moved through one process is the clock of the other on its next request', async () => {
    const [first, second] = pair.servers
    const expiry = formatTimestamp(new Date(Date.now() + 3600_000))
    const created = await fetch(`${first.baseUrl}/v4/profile/tokens`, {
      method: 'POST',
      headers: { ...seeded, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'expiring', scopes: '*', expiry }),
    })
    assert.equal(created.status, 200)
    const token = ((await created.json()) as { token: string }).token
    const expiring = { authorization: `Bearer ${token}` }
    assert.equal((await fetch(`${second.baseUrl}/v4/profile`, { headers: expiring })).status, 200)

    const moved = await cli(['clock', 'advance', '2h', '--url', first.baseUrl, '--admin-key', ADMIN_KEY])
    assert.equal(moved.code, 0, moved.stderr)
    assert.equal(JSON.parse(moved.stdout).offset_seconds, 7200)
    const clock = await fetch(`${second.baseUrl}/_cloudplane/clock`, { headers: admin })
    assert.equal(((await clock.json()) as { offset_seconds: number }).offset_seconds, 7200)
    assert.equal((await fetch(`${second.baseUrl}/v4/profile`, { headers: expiring })).status, 401)

    const resumed = await cli(['clock', 'resume', '--url', second.baseUrl, '--admin-key', ADMIN_KEY])
    assert.equal(resumed.code, 0, resumed.stderr)
    assert.equal((await fetch(`${first.baseUrl}/v4/profile`, { headers: expiring })).status, 200)
  })

  it('snapshots and resets made through one process are what the other serves', async () => {
    const [first, second] = pair.servers
    const vpc = async (base: string, label: string) =>
      fetch(`${base}/v4/vpcs`, {
        method: 'POST',
        headers: { ...seeded, 'content-type': 'application/json' },
        body: JSON.stringify({ label, region: 'us-iad' }),
      })
    const labels = async (base: string) =>
      (
        (await (await fetch(`${base}/v4/vpcs`, { headers: seeded })).json()) as {
          data: Array<{ label: string }>
        }
      ).data.map((v) => v.label)
    assert.equal((await vpc(first.baseUrl, 'kept')).status, 200)
    const saved = await cli(['snapshot', 'save', 'shared', '--url', first.baseUrl, '--admin-key', ADMIN_KEY])
    assert.equal(saved.code, 0, saved.stderr)
    const listed = await cli(['snapshot', 'list', '--url', second.baseUrl, '--admin-key', ADMIN_KEY])
    assert.deepEqual(
      JSON.parse(listed.stdout).data.map((s: { name: string }) => s.name),
      ['shared'],
    )

    assert.equal((await vpc(second.baseUrl, 'dropped')).status, 200)
    const restored = await cli([
      'snapshot',
      'restore',
      'shared',
      '--url',
      second.baseUrl,
      '--admin-key',
      ADMIN_KEY,
    ])
    assert.equal(restored.code, 0, restored.stderr)
    assert.deepEqual(await labels(first.baseUrl), ['kept'])

    const reset = await cli([
      'reset',
      '--username',
      'ci-job',
      '--url',
      first.baseUrl,
      '--admin-key',
      ADMIN_KEY,
    ])
    assert.equal(reset.code, 0, reset.stderr)
    assert.deepEqual(await labels(second.baseUrl), [])

    const refused = await cli(['reset', '--url', first.baseUrl, '--admin-key', 'wrong-key-000000000000'])
    assert.equal(refused.code, 1)
    assert.match(refused.stderr, /401/)
  })

  it('a snapshot exported with the CLI to a file imports again under another name', async () => {
    const [first, second] = pair.servers
    const exported = await cli([
      'snapshot',
      'export',
      'shared',
      '--url',
      first.baseUrl,
      '--admin-key',
      ADMIN_KEY,
    ])
    assert.equal(exported.code, 0, exported.stderr)
    const file = join(pair.dir, 'shared.cloudplane.gz')
    writeFileSync(file, exported.bytes)
    const imported = await cli([
      'snapshot',
      'import',
      'copied',
      file,
      '--url',
      second.baseUrl,
      '--admin-key',
      ADMIN_KEY,
    ])
    assert.equal(imported.code, 0, imported.stderr)
    const listed = await cli(['snapshot', 'list', '--url', first.baseUrl, '--admin-key', ADMIN_KEY])
    assert.deepEqual(
      JSON.parse(listed.stdout).data.map((s: { name: string }) => s.name),
      ['copied', 'shared'],
    )
  })

  it('a token one process has in its cache is refused there at once after a restore or a reset through the other', async () => {
    const [first, second] = pair.servers
    const control = (args: string[], base: string) => cli([...args, '--url', base, '--admin-key', ADMIN_KEY])
    const newToken = async (base: string) => {
      const res = await fetch(`${base}/v4/profile/tokens`, {
        method: 'POST',
        headers: { ...seeded, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'cached', scopes: '*' }),
      })
      assert.equal(res.status, 200)
      return { authorization: `Bearer ${((await res.json()) as { token: string }).token}` }
    }
    const status = async (base: string, headers: Record<string, string>) =>
      (await fetch(`${base}/v4/profile`, { headers })).status

    // A snapshot that is not there is just that, on a server with the controls on.
    const missing = await control(['snapshot', 'restore', 'no-such-snapshot'], first.baseUrl)
    assert.equal(missing.code, 1)
    assert.match(missing.stderr, /the server answered 404: Not found/)
    const saved = await control(['snapshot', 'save', 'before-token'], first.baseUrl)
    assert.equal(saved.code, 0, saved.stderr)
    const restoredAway = await newToken(second.baseUrl)
    assert.equal(await status(first.baseUrl, restoredAway), 200)
    const restored = await control(['snapshot', 'restore', 'before-token'], second.baseUrl)
    assert.equal(restored.code, 0, `${restored.stderr}\n${second.output()}`)
    assert.equal(await status(first.baseUrl, restoredAway), 401)

    const resetAway = await newToken(first.baseUrl)
    assert.equal(await status(second.baseUrl, resetAway), 200)
    const moved = await control(['clock', 'advance', '1h'], second.baseUrl)
    assert.equal(moved.code, 0, moved.stderr)
    const reset = await control(['reset'], first.baseUrl)
    assert.equal(reset.code, 0, `${reset.stderr}\n${first.output()}`)
    assert.equal(await status(second.baseUrl, resetAway), 401)
    // The state of the first start: the seed file's token works, and the clock is real time again.
    assert.equal(await status(second.baseUrl, seeded), 200)
    const clock = await fetch(`${second.baseUrl}/_cloudplane/clock`, { headers: admin })
    assert.equal(((await clock.json()) as { offset_seconds: number }).offset_seconds, 0)
  })
})

describe('a bad seed file at start', () => {
  it('stops the start with every problem named by its place in the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-bad-seed-'))
    try {
      const seedFile = join(dir, 'seed.json')
      writeFileSync(seedFile, JSON.stringify({ accounts: [{ users: [{ username: 'x1-user' }] }] }))
      const started = await cli(['serve', '--port', '0'], {
        DATABASE_URL: 'sqlite::memory:',
        DATA_DIR: dir,
        CLOUDPLANE_SEED_FILE: seedFile,
      })
      assert.equal(started.code, 1)
      assert.match(started.stderr, /seed file .* was not loaded: accounts\[0\]\.users\[0\]/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a bad seed file at the first start, then a good one', () => {
  it('leaves no default account behind: the next start creates it, shows its token and loads the seed', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-seed-again-'))
    const database = await processDatabase(dir)
    let server: ServerProcess | undefined
    try {
      const seedFile = join(dir, 'seed.yaml')
      const seed = (ipv4: string) =>
        `accounts:\n  - users:\n      - username: seed-again\n        email: again@example.com\n        tokens:\n          - token: "${SEEDED_TOKEN}"\n    vpcs:\n      - label: app\n        region: us-iad\n        subnets:\n          - label: web\n            ipv4: ${ipv4}\n`
      writeFileSync(seedFile, seed('10.0.1.0/99'))
      const env = { DATABASE_URL: database.url, DATA_DIR: dir, CLOUDPLANE_SEED_FILE: seedFile }
      const failed = await cli(['serve', '--port', '0'], env)
      assert.equal(failed.code, 1)
      assert.match(failed.stderr, /seed file .* was not loaded: accounts\[0\]\.vpcs\[0\]\.subnets\[0\]\.ipv4/)

      writeFileSync(seedFile, seed('10.0.1.0/24'))
      server = await startServerProcess(env)
      // The default account's first-start token is shown by this start, since none was before.
      const token = /Bearer ([0-9a-f]{64})/.exec(server.output())?.[1]
      assert.ok(token, server.output())
      assert.equal(
        (await fetch(`${server.baseUrl}/v4/profile`, { headers: { authorization: `Bearer ${token}` } }))
          .status,
        200,
      )
      const vpcs = await fetch(`${server.baseUrl}/v4/vpcs`, { headers: seeded })
      assert.equal(vpcs.status, 200)
      const page = (await vpcs.json()) as { data: Array<{ label: string; subnets: Array<{ ipv4: string }> }> }
      assert.deepEqual(
        page.data.map((v) => [v.label, v.subnets[0]?.ipv4]),
        [['app', '10.0.1.0/24']],
      )
    } finally {
      await server?.stop()
      await database.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('a seed file on a database whose default user was removed', () => {
  it('is not loaded again: the start re-creates the default user alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-seed-once-'))
    const database = await processDatabase(dir)
    let server: ServerProcess | undefined
    try {
      const seedFile = join(dir, 'seed.yaml')
      writeFileSync(
        seedFile,
        `accounts:\n  - users:\n      - username: seed-once\n        email: once@example.com\n        tokens:\n          - token: "${SEEDED_TOKEN}"\n`,
      )
      const env = { DATABASE_URL: database.url, DATA_DIR: dir, CLOUDPLANE_SEED_FILE: seedFile }
      server = await startServerProcess(env)
      await server.stop()
      const db = database.open()
      try {
        await db.deleteFrom('users').where('username', '=', 'admin').execute()
      } finally {
        await db.destroy()
      }
      // Loading the file again would meet its own users: the start would fail, and with it every start.
      server = await startServerProcess(env)
      assert.match(server.output(), /created the default account/)
      assert.equal((await fetch(`${server.baseUrl}/v4/profile`, { headers: seeded })).status, 200)
    } finally {
      await server?.stop()
      await database.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('the control API is off by default on PostgreSQL', {
  skip: testDialect() !== 'postgres' && 'PostgreSQL run only',
}, () => {
  let server: ServerProcess | undefined
  after(async () => server?.stop())

  it('its routes do not exist', async () => {
    const database = await createTestDatabase()
    await database.db.destroy()
    server = await startServerProcess({
      DATABASE_URL: postgresUrlForSchema(testPostgresUrl(), database.schema as string),
      CLOUDPLANE_ADMIN_KEY: ADMIN_KEY,
    })
    const res = await fetch(`${server.baseUrl}/_cloudplane/clock`, { headers: admin })
    assert.equal(res.status, 404)
    // The CLI says so, rather than passing on the 404.
    const said = await cli(['snapshot', 'restore', 'any', '--url', server.baseUrl, '--admin-key', ADMIN_KEY])
    assert.equal(said.code, 1)
    assert.match(said.stderr, /has no control API \(CLOUDPLANE_CONTROL=off\?\)/)
  })
})
