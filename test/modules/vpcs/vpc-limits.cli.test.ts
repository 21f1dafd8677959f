import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/processes.ts'

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))

describe('cloudplane account limits', () => {
  let dir: string
  let database: ProcessDatabase | undefined
  let env: Record<string, string>
  let server: ServerProcess | undefined

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cloudplane-limits-'))
    database = await processDatabase(dir)
    env = { DATABASE_URL: database.url, DATA_DIR: dir }
  })
  after(async () => {
    await server?.stop()
    await database?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      encoding: 'utf8',
    })

  it('shows, raises and resets the VPC limit per region, which the API then applies', async () => {
    const created = cli('account', 'create', '--username', 'quota-owner', '--email', 'quota@example.com')
    assert.equal(created.status, 0, created.stderr)
    const token = created.stdout.trim()
    const shown = cli('account', 'limits', '--username', 'quota-owner')
    assert.equal(shown.stdout, 'vpcs-per-region 10\ninstances 100\n', shown.stderr)
    const raised = cli('account', 'limits', '--username', 'quota-owner', '--vpcs-per-region', '12')
    assert.equal(raised.status, 0, raised.stderr)
    assert.equal(raised.stdout, 'vpcs-per-region 12\ninstances 100\n')

    server = await startServerProcess(env)
    const post = (label: string) =>
      fetch(`${server?.baseUrl}/v4/vpcs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ label, region: 'us-iad' }),
      })
    for (let i = 0; i < 12; i++) {
      const res = await post(`vpc-${i}`)
      assert.equal(res.status, 200, `vpc ${i}: ${await res.text()}`)
    }
    assert.equal((await post('vpc-12')).status, 400)

    const reset = cli('account', 'limits', '--username', 'quota-owner', '--vpcs-per-region', 'default')
    assert.equal(reset.stdout, 'vpcs-per-region 10\ninstances 100\n', reset.stderr)
  })

  it('refuses a bad value or an unknown user with exit status 2', () => {
    const bad = cli('account', 'limits', '--username', 'quota-owner', '--vpcs-per-region', 'lots')
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /--vpcs-per-region must be a whole number from 0 to 999999, or "default"/)
    const unknown = cli('account', 'limits', '--username', 'nobody-here')
    assert.equal(unknown.status, 2)
    assert.match(unknown.stderr, /no user named "nobody-here"/)
    const missing = cli('account', 'limits')
    assert.equal(missing.status, 2)
  })
})
