import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
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

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const {
    DATA_DIR: _d,
    DATABASE_URL: _u,
    PORT: _p,
    CLOUDPLANE_ADMIN_KEY: _k,
    CLOUDPLANE_URL: _c,
    ...rest
  } = process.env
  return { ...rest, LOG_LEVEL: 'warn', ...extra }
}

function run(args: string[], env: Record<string, string> = {}, timeout = 60_000): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: cleanEnv(env), encoding: 'utf8', timeout },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ status, stdout, stderr })
      },
    )
  })
}

const ADMIN_KEY = 'cli-admin-key-0123456789'

describe('cli: account create refuses what the API refuses', () => {
  let dir: string
  let database: ProcessDatabase
  let env: Record<string, string>
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-cli-acct-'))
    database = await processDatabase(dir)
    env = { DATA_DIR: dir, DATABASE_URL: database.url }
  })
  after(async () => {
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses an email the API itself refuses (over 128 characters, or not an email)', async () => {
    // POST /v4/account/users, PUT /v4/profile and a seed file all refuse these emails
    // ("email must be at most 128 characters", "email must be a valid email").
    const tooLong = `${'a'.repeat(300)}@example.com`
    const notEmail = 'a@b.c"<script>'
    for (const [i, email] of [tooLong, notEmail].entries()) {
      const result = await run(['account', 'create', '--username', `probe-mail-${i}`, '--email', email], env)
      assert.equal(
        result.status,
        2,
        `--email ${email.slice(0, 20)}…: exit ${result.status}: ${result.stderr}`,
      )
      assert.equal(result.stdout, '', 'no token for an account with an email the API would refuse')
    }
  })
})

describe('cli: control commands, their argument mistakes and refusals', () => {
  let dir: string
  let database: ProcessDatabase
  let server: ServerProcess
  let env: Record<string, string>
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-cli-ctl-'))
    database = await processDatabase(dir)
    server = await startServerProcess({
      DATA_DIR: dir,
      DATABASE_URL: database.url,
      CLOUDPLANE_ADMIN_KEY: ADMIN_KEY,
      CLOUDPLANE_CONTROL: 'on',
    })
    env = { CLOUDPLANE_URL: server.baseUrl, CLOUDPLANE_ADMIN_KEY: ADMIN_KEY }
  })
  after(async () => {
    await server?.stop()
    await database?.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('fault add --drop no does not add a rule that drops every connection', async () => {
    // The help documents `--drop yes`; "no" must not mean yes.
    const result = await run(['fault', 'add', '--drop', 'no', '--times', '1'], env)
    const list = await run(['fault', 'list'], env)
    await run(['fault', 'clear'], env)
    assert.equal(result.status, 2, `exit ${result.status}; added: ${result.stdout}`)
    assert.doesNotMatch(list.stdout, /"kind": "drop"/)
  })

  it('a negative number in the arguments gets exit code 2 (README), for control commands too', async () => {
    // README: "A mistake in the arguments (an unknown option, a missing value, a negative number)
    // gets one line and exit code 2; a failure, exit code 1."
    const cases = [
      ['fault', 'add', '--status', '503', '--times', '-1'],
      ['work', 'durations', '--compute-boot', '-1'],
    ]
    for (const args of cases) {
      const result = await run(args, env)
      assert.equal(result.status, 2, `${args.join(' ')}: exit ${result.status}: ${result.stderr}`)
    }
    await run(['fault', 'clear'], env)
  })

  it('a wrong admin key is named as wrong, not as missing', async () => {
    const result = await run(['clock', 'show', '--admin-key', 'not-the-key-0123456789'], env)
    assert.equal(result.status, 1)
    assert.equal(result.stderr, 'cloudplane: the server answered 401: Wrong admin key\n')
  })
})

describe('cli: help for an unknown command', () => {
  it('cloudplane help frobnicate names the command, not "frobnicate --help"', async () => {
    const result = await run(['help', 'frobnicate'])
    assert.equal(result.status, 2)
    assert.equal(result.stderr, 'cloudplane: unknown command "frobnicate"; see cloudplane --help\n')
  })
})
