import assert from 'node:assert/strict'
import { execFile } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { ConfigError, loadConfig, SECRET_SETTINGS } from '../src/config.ts'
import { SETTINGS } from '../src/settings.ts'
import { processDatabase, startServerProcess } from './helpers/processes.ts'

const CLI = fileURLToPath(new URL('../src/cli.ts', import.meta.url))
const TOKEN = 'ab'.repeat(32)
const KEY = 'cd'.repeat(32)

/**
 * Every secret setting can be given as a file (`<NAME>_FILE`, `--<flag>-file`), so that it shows
 * neither in the process list nor in the environment.
 */
describe('configuration: secrets from files', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloudplane-secrets-'))
  after(() => rmSync(dir, { recursive: true, force: true }))
  let n = 0
  const file = (text: string) => {
    const path = join(dir, `secret-${n++}`)
    writeFileSync(path, text, { mode: 0o600 })
    return path
  }
  const refused = (fn: () => unknown, setting: string, secret?: string) =>
    assert.throws(fn, (e: unknown) => {
      assert.ok(e instanceof ConfigError, String(e))
      assert.equal(e.setting, setting)
      if (secret !== undefined) assert.ok(!e.message.includes(secret), e.message)
      return true
    })

  it('every secret setting has a _FILE variable and a --…-file flag', () => {
    for (const name of SECRET_SETTINGS) {
      const flag = Object.entries(SETTINGS).find(([, s]) => s.env === name)?.[0]
      assert.ok(flag, name)
      assert.equal((SETTINGS as Record<string, { env: string }>)[`${flag}-file`]?.env, `${name}_FILE`, name)
    }
  })

  it('reads each secret from the first line of its file, from the environment or a flag', () => {
    const fromEnv = loadConfig({
      CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: file(`${TOKEN}\n`),
      CLOUDPLANE_SECRET_KEY_FILE: file(`${KEY}\r\n`),
      CLOUDPLANE_ADMIN_KEY_FILE: file('an-admin-key-of-some-length\nsecond line ignored\n'),
      DATABASE_URL_FILE: file('postgres://cp:s3cret@db.internal:5432/cp?schema=cp_one'),
      CLOUDPLANE_REDIS_URL_FILE: file('redis://:pw@127.0.0.1:6379\n'),
      CLOUDPLANE_PHONE_WEBHOOK_URL_FILE: file('https://user:pw@hooks.example.com/sms\n'),
    })
    assert.equal(fromEnv.bootstrapToken, TOKEN)
    assert.deepEqual(fromEnv.secretKey, Buffer.from(KEY, 'hex'))
    assert.equal(fromEnv.adminKey, 'an-admin-key-of-some-length')
    assert.deepEqual(fromEnv.database, {
      kind: 'postgres',
      location: 'postgres://cp:s3cret@db.internal:5432/cp',
      schema: 'cp_one',
    })
    assert.equal(fromEnv.redisUrl, 'redis://:pw@127.0.0.1:6379')
    assert.equal(fromEnv.phoneWebhookUrl, 'https://user:pw@hooks.example.com/sms')

    const fromFlags = loadConfig(
      { CLOUDPLANE_BOOTSTRAP_TOKEN: 'ef'.repeat(32) },
      { 'bootstrap-token-file': file(TOKEN), 'admin-key-file': file('flag-admin-key-0123456') },
    )
    // A flag, given as a file, wins over the environment as any flag does.
    assert.equal(fromFlags.bootstrapToken, TOKEN)
    assert.equal(fromFlags.adminKey, 'flag-admin-key-0123456')
    // And the environment's file loses to a flag's value.
    assert.equal(
      loadConfig({ CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: file(TOKEN) }, { 'bootstrap-token': 'ef'.repeat(32) })
        .bootstrapToken,
      'ef'.repeat(32),
    )
  })

  it('validates a value from a file as it validates the setting, without showing it', () => {
    refused(
      () => loadConfig({ CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: file('not-hex-at-all\n') }),
      'CLOUDPLANE_BOOTSTRAP_TOKEN',
    )
    refused(
      () => loadConfig({ CLOUDPLANE_REDIS_URL_FILE: file('http://:hunter2@x\n') }),
      'CLOUDPLANE_REDIS_URL',
      'hunter2',
    )
    refused(
      () => loadConfig({ CLOUDPLANE_PHONE_WEBHOOK_URL_FILE: file('ftp://u:hunter2@x\n') }),
      'CLOUDPLANE_PHONE_WEBHOOK_URL',
      'hunter2',
    )
  })

  it('refuses a missing, unreadable or empty file, and a secret given both ways, naming the setting', () => {
    refused(
      () => loadConfig({ CLOUDPLANE_SECRET_KEY_FILE: join(dir, 'absent') }),
      'CLOUDPLANE_SECRET_KEY_FILE',
    )
    refused(() => loadConfig({ DATABASE_URL_FILE: file('\nsqlite::memory:\n') }), 'DATABASE_URL_FILE')
    refused(() => loadConfig({ DATABASE_URL_FILE: dir }), 'DATABASE_URL_FILE')
    if (process.getuid?.() !== 0) {
      const locked = file(TOKEN)
      chmodSync(locked, 0o000)
      refused(
        () => loadConfig({ CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: locked }),
        'CLOUDPLANE_BOOTSTRAP_TOKEN_FILE',
        TOKEN,
      )
    }
    refused(
      () =>
        loadConfig({
          CLOUDPLANE_ADMIN_KEY: 'an-admin-key-of-some-length',
          CLOUDPLANE_ADMIN_KEY_FILE: file('x'),
        }),
      'CLOUDPLANE_ADMIN_KEY_FILE',
      'an-admin-key-of-some-length',
    )
    refused(
      () =>
        loadConfig({}, { 'redis-url': 'redis://127.0.0.1:6379', 'redis-url-file': file('redis://x:6379') }),
      'CLOUDPLANE_REDIS_URL_FILE',
    )
  })

  it('serve takes the bootstrap token and admin key from files; database commands take the URL from one', async () => {
    const dataDir = mkdtempSync(join(dir, 'data-'))
    const database = await processDatabase(dataDir)
    try {
      const urlFile = file(`${database.url}\n`)
      const cli = (args: string[]) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          execFile(
            process.execPath,
            [CLI, ...args],
            {
              env: {
                ...process.env,
                DATABASE_URL: '',
                CLOUDPLANE_ADMIN_KEY: '',
                DATA_DIR: dataDir,
                LOG_LEVEL: 'warn',
              },
              encoding: 'utf8',
            },
            (error, _stdout, stderr) =>
              resolve({ code: error === null ? 0 : (error.code as number), stderr }),
          )
        })
      const migrate = await cli(['migrate', '--database-url-file', urlFile])
      assert.equal(migrate.code, 0, migrate.stderr)
      assert.match(migrate.stderr, /migration|up to date/)

      const server = await startServerProcess({
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        DATABASE_URL_FILE: urlFile,
        CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: file(`${TOKEN}\n`),
        CLOUDPLANE_ADMIN_KEY_FILE: file('file-admin-key-0123456789\n'),
        CLOUDPLANE_CONTROL: 'on',
      })
      try {
        const profile = await fetch(`${server.baseUrl}/v4/profile`, {
          headers: { authorization: `Bearer ${TOKEN}` },
        })
        assert.equal(profile.status, 200)
        const control = await fetch(`${server.baseUrl}/_cloudplane/clock`, {
          headers: { 'x-cloudplane-admin-key': 'file-admin-key-0123456789' },
        })
        assert.equal(control.status, 200)
        // The control commands take the key from a file too.
        const clock = await cli([
          'clock',
          'show',
          '--url',
          server.baseUrl,
          '--admin-key-file',
          file('file-admin-key-0123456789\n'),
        ])
        assert.equal(clock.code, 0, clock.stderr)
        const wrongKey = await cli([
          'clock',
          'show',
          '--url',
          server.baseUrl,
          '--admin-key-file',
          file('another-key-0123456789\n'),
        ])
        assert.notEqual(wrongKey.code, 0)
        const missing = await cli([
          'clock',
          'show',
          '--url',
          server.baseUrl,
          '--admin-key-file',
          join(dir, 'absent'),
        ])
        assert.equal(missing.code, 2, missing.stderr)
        assert.match(missing.stderr, /--admin-key-file: cannot read/)
        // Neither secret was printed.
        assert.ok(!server.output().includes(TOKEN))
        assert.ok(!server.output().includes('file-admin-key-0123456789'))
      } finally {
        await server.stop()
      }
    } finally {
      await database.drop()
    }
  })
})
