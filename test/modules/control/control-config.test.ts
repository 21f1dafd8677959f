import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../../src/config.ts'

describe('the control settings', () => {
  it('the control API is on by default on SQLite, off on PostgreSQL; CLOUDPLANE_CONTROL decides', () => {
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }).control, true)
    assert.equal(loadConfig({ DATABASE_URL: 'postgres://u@localhost/db' }).control, false)
    assert.equal(
      loadConfig({ DATABASE_URL: 'postgres://u@localhost/db', CLOUDPLANE_CONTROL: 'on' }).control,
      true,
    )
    assert.equal(loadConfig({ DATABASE_URL: 'sqlite::memory:' }, { control: 'off' }).control, false)
    assert.throws(() => loadConfig({ CLOUDPLANE_CONTROL: 'maybe' }), ConfigError)
  })

  it('refuses a short admin key and an unreadable seed file, naming the setting', () => {
    assert.throws(
      () => loadConfig({ CLOUDPLANE_ADMIN_KEY: 'short' }),
      (e: Error) => e instanceof ConfigError && e.message.startsWith('CLOUDPLANE_ADMIN_KEY'),
    )
    assert.throws(
      () => loadConfig({ CLOUDPLANE_SEED_FILE: '/nonexistent/seed.yaml' }),
      (e: Error) => e instanceof ConfigError && e.message.startsWith('CLOUDPLANE_SEED_FILE'),
    )
    assert.equal(loadConfig({ CLOUDPLANE_RANDOM_SEED: 'abc' }).randomSeed, 'abc')
  })
})
