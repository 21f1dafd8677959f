import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../helpers/processes.ts'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

/** Signs in on the running server's login page; the status of the form post (303 when accepted). */
async function signIn(baseUrl: string, username: string, password: string): Promise<number> {
  const page = await fetch(`${baseUrl}/login`)
  const cookie = String(page.headers.get('set-cookie')).split(';')[0]
  const csrf = /name="csrf" value="([0-9a-f]{64})"/.exec(await page.text())?.[1] ?? ''
  const res = await fetch(`${baseUrl}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ csrf, next: '/login/done', username, password }),
  })
  return res.status
}

describe('cloudplane user password and account create --password-file', () => {
  let dir: string
  let database: ProcessDatabase | undefined
  let env: Record<string, string | undefined>
  let server: ServerProcess

  const run = (args: string[]) => spawnSync(process.execPath, [CLI, ...args], { env, encoding: 'utf8' })
  const passwordFile = (name: string, text: string) => {
    const path = join(dir, name)
    writeFileSync(path, text)
    return path
  }

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-password-'))
    const { DATA_DIR: _d, DATABASE_URL: _u, PORT: _p, ...rest } = process.env
    database = await processDatabase(dir)
    env = { ...rest, LOG_LEVEL: 'warn', DATA_DIR: dir, DATABASE_URL: database.url }
    server = await startServerProcess(env as Record<string, string>)
  })
  after(async () => {
    await server?.stop()
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('creates an account whose user signs in with the password from the file, never printed', async () => {
    const file = passwordFile('bob.pass', 'a long enough secret\n')
    const created = run([
      'account',
      'create',
      '--username',
      'bob-pw',
      '--email',
      'b@example.com',
      '--password-file',
      file,
    ])
    assert.equal(created.status, 0, created.stderr)
    assert.doesNotMatch(created.stdout + created.stderr, /a long enough secret/)
    assert.equal(await signIn(server.baseUrl, 'bob-pw', 'a long enough secret'), 303)
    assert.equal(await signIn(server.baseUrl, 'bob-pw', 'a long enough secret\n'), 401)
  })

  it('user password replaces the password; a missing user, file or short password is a usage error', async () => {
    const created = run(['account', 'create', '--username', 'ann-pw', '--email', 'a@example.com'])
    assert.equal(created.status, 0, created.stderr)
    assert.equal(await signIn(server.baseUrl, 'ann-pw', 'whatever-password'), 401)
    const set = run([
      'user',
      'password',
      '--username',
      'ann-pw',
      '--password-file',
      passwordFile('ann', 'first-password'),
    ])
    assert.equal(set.status, 0, set.stderr)
    assert.equal(await signIn(server.baseUrl, 'ann-pw', 'first-password'), 303)
    const again = run([
      'user',
      'password',
      '--username',
      'ann-pw',
      '--password-file',
      passwordFile('ann2', 'second-password'),
    ])
    assert.equal(again.status, 0, again.stderr)
    assert.equal(await signIn(server.baseUrl, 'ann-pw', 'first-password'), 401)
    assert.equal(await signIn(server.baseUrl, 'ann-pw', 'second-password'), 303)

    const nobody = run([
      'user',
      'password',
      '--username',
      'nobody-here',
      '--password-file',
      passwordFile('n', 'long-password'),
    ])
    assert.equal(nobody.status, 2)
    assert.match(nobody.stderr, /no user named "nobody-here"/)
    const short = run([
      'user',
      'password',
      '--username',
      'ann-pw',
      '--password-file',
      passwordFile('s', 'short'),
    ])
    assert.equal(short.status, 2)
    assert.match(short.stderr, /8-128 characters/)
    assert.doesNotMatch(short.stderr, /short/)
    const missing = run(['user', 'password', '--username', 'ann-pw', '--password-file', join(dir, 'absent')])
    assert.equal(missing.status, 2)
    assert.match(missing.stderr, /ENOENT/)
  })
})
