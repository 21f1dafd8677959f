import assert from 'node:assert/strict'
import { resolve } from 'node:path'
import { describe, it } from 'node:test'
import { baseUrl, ConfigError, isMemoryDatabase, loadConfig } from '../src/config.ts'

describe('configuration', () => {
  it('defaults: 127.0.0.1:8080, ./data, SQLite in the data directory', () => {
    const config = loadConfig({})
    assert.equal(config.port, 8080)
    assert.equal(config.host, '127.0.0.1')
    assert.equal(config.dataDir, resolve('./data'))
    assert.deepEqual(config.database, { kind: 'sqlite', location: resolve('./data/cloudplane.db') })
    assert.equal(config.logLevel, 'info')
    assert.equal(config.bootstrapToken, undefined)
    assert.equal(baseUrl(config), 'http://127.0.0.1:8080')
  })

  it('keeps list pages unless CLOUDPLANE_KEPT_PAGES or --kept-pages is off; refuses another value', () => {
    assert.equal(loadConfig({}).keptPages, true)
    assert.equal(loadConfig({ CLOUDPLANE_KEPT_PAGES: 'off' }).keptPages, false)
    assert.equal(loadConfig({ CLOUDPLANE_KEPT_PAGES: 'off' }, { 'kept-pages': 'on' }).keptPages, true)
    assert.throws(() => loadConfig({ CLOUDPLANE_KEPT_PAGES: 'sometimes' }), ConfigError)
  })

  it('reads the environment, and flags override it', () => {
    const config = loadConfig(
      {
        PORT: '9000',
        HOST: '0.0.0.0',
        DATA_DIR: 'var/cp',
        LOG_LEVEL: 'warn',
        DATABASE_URL: 'sqlite::memory:',
      },
      { port: '9001' },
    )
    assert.equal(config.port, 9001)
    assert.equal(baseUrl(config), 'http://127.0.0.1:9001')
    assert.equal(config.dataDir, resolve('var/cp'))
    assert.deepEqual(config.database, { kind: 'sqlite', location: ':memory:' })
    const pg = loadConfig({ DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test?schema=cp_one' })
    assert.deepEqual(pg.database, {
      kind: 'postgres',
      location: 'postgres://postgres@127.0.0.1:5432/test',
      schema: 'cp_one',
    })
    const token = 'AB'.repeat(32)
    assert.equal(loadConfig({ CLOUDPLANE_BOOTSTRAP_TOKEN: token }).bootstrapToken, token.toLowerCase())
  })

  it('an invalid setting stops start-up with a message naming it', () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ PORT: 'eighty' }, 'PORT'],
      [{ PORT: '70000' }, 'PORT'],
      [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'postgres://x?schema=Bad-Name' }, 'DATABASE_URL'],
      [{ DATABASE_URL: 'sqlite:' }, 'DATABASE_URL'],
      [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
      [{ CLOUDPLANE_BOOTSTRAP_TOKEN: 'short' }, 'CLOUDPLANE_BOOTSTRAP_TOKEN'],
      [{ PORT: '-1' }, 'PORT'],
      [{ DATABASE_CONNECT_TIMEOUT: '-5' }, 'DATABASE_CONNECT_TIMEOUT'],
      [{ DATABASE_CONNECT_TIMEOUT: '30s' }, 'DATABASE_CONNECT_TIMEOUT'],
    ]
    for (const [env, setting] of cases) {
      assert.throws(
        () => loadConfig(env),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.setting === setting &&
          e.message.startsWith(`${setting}: `) &&
          !e.message.includes('\n'),
        JSON.stringify(env),
      )
    }
  })

  it('PostgreSQL start-up waits 30 s by default; DATABASE_CONNECT_TIMEOUT (seconds) changes it, 0 tries once', () => {
    assert.equal(loadConfig({}).databaseConnectTimeoutMs, 30_000)
    assert.equal(loadConfig({ DATABASE_CONNECT_TIMEOUT: '5' }).databaseConnectTimeoutMs, 5000)
    assert.equal(loadConfig({}, { 'database-connect-timeout': '0' }).databaseConnectTimeoutMs, 0)
  })

  it('knows which URLs follow the bound port, and which database lives only in memory', () => {
    const defaults = loadConfig({ PORT: '0' })
    assert.equal(defaults.publicUrlConfigured, false, 'upload URLs take the port actually bound')
    assert.equal(defaults.blobsDirConfigured, false)
    assert.equal(isMemoryDatabase(defaults), false)
    const set = loadConfig({
      CLOUDPLANE_PUBLIC_URL: 'https://cloud.example.com',
      CLOUDPLANE_BLOBS_DIR: '/srv/blobs',
      DATABASE_URL: 'sqlite::memory:',
    })
    assert.equal(set.publicUrlConfigured, true)
    assert.equal(set.blobsDirConfigured, true)
    assert.equal(isMemoryDatabase(set), true)
    assert.equal(isMemoryDatabase(loadConfig({ DATABASE_URL: 'postgres://db/x' })), false)
  })
})
