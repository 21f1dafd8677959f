import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../../../src/config.ts'
import { migrateToLatest } from '../../../../src/db/migrate.ts'
import { SecretBox } from '../../../../src/modules/profile/secrets/secret-box.ts'
import {
  assertSameSecretKey,
  loadOrCreateSecretKey,
  SECRET_KEY_FILE,
} from '../../../../src/modules/profile/secrets/secret-key.ts'
import { createTestDatabase, type TestDatabase } from '../../../helpers/dialects.ts'

describe('the server key', () => {
  it('seals for one purpose and context; another key, purpose or context cannot open it', () => {
    const box = new SecretBox(randomBytes(32))
    const sealed = box.seal('tfa-secret', 'JBSWY3DPEHPK3PXP', 'tfa:1')
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'))
    assert.notEqual(box.seal('tfa-secret', 'JBSWY3DPEHPK3PXP', 'tfa:1'), sealed, 'a fresh IV each time')
    assert.equal(box.open('tfa-secret', sealed, 'tfa:1'), 'JBSWY3DPEHPK3PXP')
    assert.equal(box.open('tfa-secret', sealed, 'tfa:2'), undefined)
    assert.equal(box.open('phone-code', sealed, 'tfa:1'), undefined)
    assert.equal(new SecretBox(randomBytes(32)).open('tfa-secret', sealed, 'tfa:1'), undefined)
    // One character of the tag changed, always to another: the next-to-last of its 22 carries six
    // bits of the tag (the last only two; writing "AA" over both left the tag as it was once in 256
    // runs, and the test failed).
    const at = sealed.length - 2
    const tampered = `${sealed.slice(0, at)}${sealed[at] === 'A' ? 'B' : 'A'}${sealed.slice(at + 1)}`
    assert.notEqual(tampered, sealed)
    assert.equal(box.open('tfa-secret', tampered, 'tfa:1'), undefined, 'tampering is detected')
    assert.equal(box.open('tfa-secret', 'garbage', 'tfa:1'), undefined)
  })

  it('digests with a key and compares in constant time', () => {
    const box = new SecretBox(randomBytes(32))
    const digest = box.digest('scratch-code', 'ABCD')
    assert.match(digest, /^[0-9a-f]{64}$/)
    assert.notEqual(new SecretBox(randomBytes(32)).digest('scratch-code', 'ABCD'), digest)
    assert.equal(box.matches('scratch-code', 'ABCD', digest), true)
    assert.equal(box.matches('scratch-code', 'ABCE', digest), false)
    assert.equal(box.matches('scratch-code', 'ABCD', 'short'), false)
  })

  describe('key file', () => {
    let dir: string
    before(() => {
      dir = mkdtempSync(join(tmpdir(), 'cloudplane-key-'))
    })
    after(() => rmSync(dir, { recursive: true, force: true }))

    it('is created on first start (mode 0600) and reused afterwards', () => {
      const data = join(dir, 'data')
      const first = loadOrCreateSecretKey(data)
      assert.equal(first.length, 32)
      const path = join(data, SECRET_KEY_FILE)
      assert.equal(statSync(path).mode & 0o777, 0o600)
      assert.match(readFileSync(path, 'utf8'), /^[0-9a-f]{64}\n$/)
      assert.deepEqual(loadOrCreateSecretKey(data), first)
    })

    it('refuses a file that does not hold a key', () => {
      const data = join(dir, 'broken')
      loadOrCreateSecretKey(data)
      writeFileSync(join(data, SECRET_KEY_FILE), 'not a key\n')
      assert.throws(() => loadOrCreateSecretKey(data), ConfigError)
    })
  })

  describe('one key per database', () => {
    let database: TestDatabase
    before(async () => {
      database = await createTestDatabase()
      await migrateToLatest(database.db)
    })
    after(async () => {
      await database.db.destroy()
      await database.drop()
    })

    it('records the first key’s fingerprint and refuses to start with another', async () => {
      const key = randomBytes(32)
      await assertSameSecretKey(database.db, new SecretBox(key))
      await assertSameSecretKey(database.db, new SecretBox(Buffer.from(key)))
      await assert.rejects(
        assertSameSecretKey(database.db, new SecretBox(randomBytes(32))),
        (error: unknown) =>
          error instanceof ConfigError &&
          error.message.startsWith('CLOUDPLANE_SECRET_KEY: differs from the key'),
      )
    })
  })

  describe('configuration', () => {
    it('takes CLOUDPLANE_SECRET_KEY (64 hex) and CLOUDPLANE_PHONE_WEBHOOK_URL, or their serve flags', () => {
      const key = randomBytes(32).toString('hex')
      const config = loadConfig({
        CLOUDPLANE_SECRET_KEY: key,
        CLOUDPLANE_PHONE_WEBHOOK_URL: 'https://sms.example/hook',
      })
      assert.deepEqual(config.secretKey, Buffer.from(key, 'hex'))
      assert.equal(config.phoneWebhookUrl, 'https://sms.example/hook')
      const flagged = loadConfig(
        {},
        { 'secret-key': key.toUpperCase(), 'phone-webhook-url': 'http://127.0.0.1:9/x' },
      )
      assert.deepEqual(flagged.secretKey, Buffer.from(key, 'hex'))
      assert.equal(flagged.phoneWebhookUrl, 'http://127.0.0.1:9/x')
      const defaults = loadConfig({})
      assert.equal(defaults.secretKey, undefined)
      assert.equal(defaults.phoneWebhookUrl, undefined)
    })

    it('stops with a one-line message naming a bad setting', () => {
      assert.throws(
        () => loadConfig({ CLOUDPLANE_SECRET_KEY: 'abc' }),
        (e: unknown) =>
          e instanceof ConfigError &&
          e.message === 'CLOUDPLANE_SECRET_KEY: must be 64 hexadecimal characters',
      )
      assert.throws(
        () => loadConfig({ CLOUDPLANE_PHONE_WEBHOOK_URL: 'ftp://user:hunter2@example.com' }),
        // The value is not echoed: a webhook URL may carry a password.
        (e: unknown) =>
          e instanceof ConfigError &&
          e.message === 'CLOUDPLANE_PHONE_WEBHOOK_URL: must be an http:// or https:// URL',
      )
    })
  })
})
