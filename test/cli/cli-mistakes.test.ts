import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  type ProcessDatabase,
  processDatabase,
  runScript,
  type ServerProcess,
  startServerProcess,
} from '../helpers/processes.ts'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))

/** `cloudplane <args>`, its environment only what the test gives (no database or server of the shell's). */
const run = (args: string[], env: Record<string, string> = {}) =>
  runScript(CLI, args, {
    DATA_DIR: '',
    DATABASE_URL: '',
    PORT: '',
    CLOUDPLANE_ADMIN_KEY: '',
    CLOUDPLANE_URL: '',
    ...env,
  })

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
      assert.equal(result.code, 2, `--email ${email.slice(0, 20)}…: exit ${result.code}: ${result.stderr}`)
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
    assert.equal(result.code, 2, `exit ${result.code}; added: ${result.stdout}`)
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
      assert.equal(result.code, 2, `${args.join(' ')}: exit ${result.code}: ${result.stderr}`)
    }
    await run(['fault', 'clear'], env)
  })

  it('a wrong admin key is named as wrong, not as missing', async () => {
    const result = await run(['clock', 'show', '--admin-key', 'not-the-key-0123456789'], env)
    assert.equal(result.code, 1)
    assert.equal(result.stderr, 'cloudplane: the server answered 401: Wrong admin key\n')
  })
})

describe('cli: help for an unknown command', () => {
  it('cloudplane help frobnicate names the command, not "frobnicate --help"', async () => {
    const result = await run(['help', 'frobnicate'])
    assert.equal(result.code, 2)
    assert.equal(result.stderr, 'cloudplane: unknown command "frobnicate"; see cloudplane --help\n')
  })
})
