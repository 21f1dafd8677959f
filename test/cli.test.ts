import assert from 'node:assert/strict'
import { execFile, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { DATABASE_FLAGS } from '../src/cli/command.ts'
import { COMMANDS } from '../src/cli/commands.ts'
import { CONTROL_OPTIONS } from '../src/cli/control-commands.ts'
import { testDialect, testPostgresUrl } from './helpers/dialects.ts'
import {
  type ProcessDatabase,
  postgresUrlForSchema,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from './helpers/processes.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const VERSION = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

/** The environment without anything that points the CLI at a database: each test says which. */
function cleanEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const { DATA_DIR: _d, DATABASE_URL: _u, PORT: _p, ...rest } = process.env
  return { ...rest, LOG_LEVEL: 'warn', ...extra }
}

/** Runs the CLI without waiting synchronously, so that independent runs overlap. */
function runAsync(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: cleanEnv(env), encoding: 'utf8' },
      (error, stdout, stderr) => {
        const status = error === null ? 0 : typeof error.code === 'number' ? error.code : null
        resolve({ status, stdout, stderr })
      },
    )
  })
}

/** Each command that acts on a database, with what it needs (`passwordFile` holds a valid password). */
const dbCommands = (passwordFile: string): string[][] => [
  ['migrate'],
  ['user', 'password', '--username', 'mem-user', '--password-file', passwordFile],
  ['account', 'create', '--username', 'mem-user', '--email', 'mem@example.com'],
  ['account', 'limits', '--username', 'mem-user'],
  ['token', 'create', '--username', 'mem-user'],
  ['region', 'status', 'us-east', 'ok'],
]

describe('the cloudplane command', () => {
  let dir: string
  let database: ProcessDatabase | undefined
  let env: Record<string, string>
  /** How the server's database is named by flags instead of the environment. */
  let databaseFlags: string[]
  let server: ServerProcess

  const run = (args: string[], extra: Record<string, string> = {}): Run =>
    spawnSync(process.execPath, [CLI, ...args], { env: cleanEnv({ ...env, ...extra }), encoding: 'utf8' })

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-cli-'))
    database = await processDatabase(dir)
    env = { DATA_DIR: dir, DATABASE_URL: database.url }
    databaseFlags = testDialect() === 'postgres' ? ['--database-url', database.url] : ['--data-dir', dir]
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
      '--username',
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
    const oldSpelling = run(['token', 'create', '--user', 'ci-runner-2'])
    assert.equal(oldSpelling.status, 0, `--user still works: ${oldSpelling.stderr}`)
    assert.match(oldSpelling.stdout.trim(), /^[0-9a-f]{64}$/)
  })

  it('every command that acts on the database takes --data-dir / --database-url like serve', async () => {
    const created = run(
      ['account', 'create', '--username', 'ci-flags', '--email', 'flags@example.com', ...databaseFlags],
      { DATA_DIR: '', DATABASE_URL: '' },
    )
    assert.equal(created.status, 0, created.stderr)
    const res = await fetch(`${server.baseUrl}/v4/profile`, {
      headers: { authorization: `Bearer ${created.stdout.trim()}` },
    })
    assert.equal(res.status, 200, 'the account went into the server database named by the flag')
    const limits = run(
      ['account', 'limits', '--username', 'ci-flags', '--vpcs-per-region', '12', ...databaseFlags],
      {
        DATA_DIR: '',
        DATABASE_URL: '',
      },
    )
    assert.equal(limits.status, 0, limits.stderr)
    assert.equal(limits.stdout, 'vpcs-per-region 12\ninstances 100\n')
    const token = run(['token', 'create', '--username', 'ci-flags', ...databaseFlags], {
      DATA_DIR: '',
      DATABASE_URL: '',
    })
    assert.equal(token.status, 0, token.stderr)
    const region = run(['region', 'status', 'us-east', 'ok', ...databaseFlags], {
      DATA_DIR: '',
      DATABASE_URL: '',
    })
    assert.equal(region.status, 0, region.stderr)
    const passwordFile = join(dir, 'flags-password')
    writeFileSync(passwordFile, 'a long enough password\n')
    const password = run(
      ['user', 'password', '--username', 'ci-flags', '--password-file', passwordFile, ...databaseFlags],
      { DATA_DIR: '', DATABASE_URL: '' },
    )
    assert.equal(password.status, 0, password.stderr)
    const migrated = run(['migrate', ...databaseFlags], { DATA_DIR: '', DATABASE_URL: '' })
    assert.equal(migrated.status, 0, migrated.stderr)
    assert.match(migrated.stderr, /already up to date/)
  })

  it('refuses bad arguments with one line and exit code 2', async () => {
    const cases: string[][] = [
      ['token', 'create'],
      ['token', 'create', '--username', 'nobody-here'],
      ['token', 'create', '--username', 'x', '--scopes', 'vpc:admin'],
      ['token', 'create', '--username', 'x', '--expiry', 'tomorrow'],
      ['token', 'create', '--username'],
      ['token', 'create', '--username', 'x', '--colour', 'red'],
      ['account', 'create', '--username', 'a'],
      ['account', 'create', 'extra', '--username', 'abc', '--email', 'a@example.com'],
      ['region', 'status', 'us-east'],
      ['region', 'status', 'us-east', 'ok', 'more'],
      ['migrate', '--verbose'],
      ['account', 'frobnicate'],
      ['frobnicate'],
    ]
    const results = await Promise.all(cases.map((args) => runAsync(args, env)))
    for (const [i, result] of results.entries()) {
      const args = (cases[i] as string[]).join(' ')
      assert.equal(result.status, 2, `${args}: ${result.stderr}`)
      assert.match(result.stderr, /^cloudplane: /, args)
      assert.equal(result.stdout, '', args)
    }
  })

  it('a negative number gets a message saying what the option takes, and exit code 2', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['account', 'limits', '--username', 'ci-runner-1', '--vpcs-per-region', '-1'],
        /--vpcs-per-region.*0 to 999999.*"-1"/,
      ],
      [['account', 'limits', '--username', 'ci-runner-1', '--vpcs-per-region=-3'], /--vpcs-per-region.*"-3"/],
      [['serve', '--port', '-1'], /PORT: must be a port number \(0-65535\), got "-1"/],
      [['serve', '--database-connect-timeout', '-5'], /DATABASE_CONNECT_TIMEOUT: .*"-5"/],
      [['serve', '--image-upload-limit', '-2G'], /CLOUDPLANE_IMAGE_UPLOAD_LIMIT: .*"-2G"/],
    ]
    const results = await Promise.all(cases.map(([args]) => runAsync(args, env)))
    for (const [i, result] of results.entries()) {
      const [args, message] = cases[i] as [string[], RegExp]
      assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`)
      assert.match(result.stderr, message, args.join(' '))
      assert.equal(result.stderr.trim().split('\n').length, 1, args.join(' '))
    }
  })

  it('--version, and --help on every command and group', async () => {
    const version = await runAsync(['--version'])
    assert.equal(version.status, 0)
    assert.equal(version.stdout, `cloudplane ${VERSION}\n`)

    const overview = await runAsync(['--help'])
    assert.equal(overview.status, 0)
    for (const name of [
      'serve',
      'migrate',
      'account create',
      'account limits',
      'token create',
      'region status',
    ]) {
      assert.match(overview.stdout, new RegExp(`^ {2}${name} `, 'm'), name)
    }

    const commands: Array<[string[], string[]]> = [
      [['serve'], ['--port', '--data-dir', '--database-url', '--database-connect-timeout', '--log-level']],
      [['migrate'], ['--data-dir', '--database-url']],
      [
        ['account', 'create'],
        ['--username', '--email', '--data-dir', '--database-url'],
      ],
      [
        ['account', 'limits'],
        ['--username', '--vpcs-per-region', '--data-dir', '--database-url'],
      ],
      [
        ['token', 'create'],
        ['--username', '--scopes', '--expiry', '--label', '--data-dir', '--database-url'],
      ],
      [
        ['region', 'status'],
        ['--data-dir', '--database-url'],
      ],
    ]
    const helps = await Promise.all(
      commands.flatMap(([words]) => [
        runAsync([...words, '--help']),
        runAsync(['help', ...words]),
        runAsync([...words, '-h']),
      ]),
    )
    for (const [i, [words, flags]] of commands.entries()) {
      for (const help of helps.slice(i * 3, i * 3 + 3)) {
        assert.equal(help.status, 0, words.join(' '))
        assert.match(help.stdout, new RegExp(`^usage: cloudplane ${words.join(' ')}`), words.join(' '))
        for (const flag of flags)
          assert.match(help.stdout, new RegExp(`^ {2}${flag} `, 'm'), `${words.join(' ')} ${flag}`)
        assert.doesNotMatch(help.stdout, /--user /, 'the old spelling is not advertised')
      }
    }

    // Every command and group, as listed: help, the same flag names, the database found like serve.
    const every = await Promise.all(COMMANDS.map((c) => runAsync([...c.name.split(' '), '--help'])))
    for (const [i, help] of every.entries()) {
      const command = COMMANDS[i] as (typeof COMMANDS)[number]
      assert.equal(help.status, 0, `${command.name}: ${help.stderr}`)
      assert.match(help.stdout, new RegExp(`^usage: cloudplane ${command.name}( |$)`, 'm'), command.name)
      assert.doesNotMatch(help.stdout, /^ {2}--user /m, `${command.name}: --username, not --user`)
      const options = Object.keys(command.options)
      const remote = Object.keys(CONTROL_OPTIONS).every((o) => options.includes(o))
      // A command either acts on the database (found as serve finds it) or on a running server.
      for (const flag of remote ? Object.keys(CONTROL_OPTIONS) : DATABASE_FLAGS) {
        assert.match(help.stdout, new RegExp(`^ {2}--${flag} `, 'm'), `${command.name} --${flag}`)
      }
    }
    const groups = [
      ...new Set(COMMANDS.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0] as string)),
    ]
    const groupHelps = await Promise.all(groups.map((g) => runAsync([g, '--help'])))
    for (const [i, help] of groupHelps.entries()) {
      const group = groups[i] as string
      assert.equal(help.status, 0, group)
      for (const c of COMMANDS.filter((c) => c.name.startsWith(`${group} `))) {
        assert.match(help.stdout, new RegExp(`^ {2}${c.name} `, 'm'), c.name)
      }
    }

    const group = await runAsync(['account', '--help'])
    assert.equal(group.status, 0)
    assert.match(group.stdout, /account create/)
    assert.match(group.stdout, /account limits/)
    const bare = await runAsync(['account'])
    assert.equal(bare.status, 2)
    assert.match(bare.stderr, /^cloudplane: account needs a command/)
  })

  it('refuses an in-memory database for every command that acts on one', async () => {
    const passwordFile = join(dir, 'memory-password')
    writeFileSync(passwordFile, 'a long enough password\n')
    const DB_COMMANDS = dbCommands(passwordFile)
    const results = await Promise.all(
      DB_COMMANDS.flatMap((args) => [
        runAsync([...args, '--database-url', 'sqlite::memory:']),
        runAsync(args, { DATABASE_URL: 'sqlite::memory:' }),
      ]),
    )
    for (const [i, result] of results.entries()) {
      const args = (DB_COMMANDS[Math.floor(i / 2)] as string[]).join(' ')
      assert.equal(result.status, 2, `${args}: ${result.stderr}`)
      assert.match(result.stderr, /^cloudplane: .*sqlite::memory:.*vanishes when it exits/, args)
      assert.equal(result.stdout, '', `${args}: no token that works nowhere`)
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
    assert.match(result.stderr, /already up to date/)
  })
})

describe('migrate on a database of its own', () => {
  const dirs: string[] = []
  after(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
  })

  it('says which migrations it applied, then that the database is up to date', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-migrate-'))
    dirs.push(dir)
    let args = ['migrate', '--data-dir', join(dir, 'nested', 'data')]
    if (testDialect() === 'postgres') {
      // A schema nobody created: migrate creates it and says so.
      const schema = `${process.env.CLOUDPLANE_TEST_SCHEMA_PREFIX ?? 'test_'}cli_${process.pid}`
      args = ['migrate', '--database-url', postgresUrlForSchema(testPostgresUrl(), schema)]
    }
    const first = await runAsync(args)
    assert.equal(first.status, 0, first.stderr)
    assert.match(first.stderr, /applied \d+ migrations to .*: 2026_11_21_0001_platform, /)
    if (testDialect() === 'postgres') assert.match(first.stderr, /created the PostgreSQL schema/)
    else assert.match(first.stderr, /no database at .*cloudplane\.db yet; creating it/)
    const second = await runAsync(args)
    assert.equal(second.status, 0, second.stderr)
    assert.match(second.stderr, /already up to date/)
    assert.doesNotMatch(second.stderr, /applied|creating|created/)
  })

  it('waits a bounded time for an unreachable PostgreSQL, saying so, then stops with one line', async () => {
    const result = await runAsync(['migrate', '--database-connect-timeout', '1'], {
      // Port 1 on loopback: nothing listens there, so every attempt is refused at once.
      DATABASE_URL: 'postgres://cloudplane:secret@127.0.0.1:1/cloudplane',
    })
    assert.equal(result.status, 1, result.stderr)
    const lines = result.stderr.trim().split('\n')
    assert.ok(lines.length >= 2, `each retry is reported: ${result.stderr}`)
    assert.ok(
      lines
        .slice(0, -1)
        .every((l) => /cannot reach the database yet .*ECONNREFUSED.*; attempt \d+ in/.test(l)),
    )
    assert.match(
      lines.at(-1) as string,
      /^cloudplane: cannot reach the database at postgres:\/\/cloudplane@127\.0\.0\.1:1\/cloudplane .*after \d+ attempts in 1 s/,
    )
    assert.doesNotMatch(result.stderr, /secret/, 'the password is never shown')
  })

  it('names the path and the cause when the data directory cannot be created', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-blocked-'))
    dirs.push(dir)
    const blocker = join(dir, 'a-file')
    writeFileSync(blocker, 'not a folder\n')
    const result = await runAsync(['migrate', '--data-dir', join(blocker, 'data')])
    assert.equal(result.status, 1, result.stderr)
    assert.match(
      result.stderr,
      new RegExp(
        `^cloudplane: cannot create the database folder ${join(blocker, 'data')}: a file is in the way`,
      ),
    )
    assert.equal(result.stderr.trim().split('\n').length, 1)
  })
})
