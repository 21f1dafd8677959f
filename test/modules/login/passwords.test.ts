import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../../src/modules/login/passwords.ts'

describe('password hashing', () => {
  it('hashes with scrypt and a salt of its own, and verifies only the right password', async () => {
    const first = await hashPassword('correct horse battery staple')
    const second = await hashPassword('correct horse battery staple')
    assert.match(first, /^scrypt\$17\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/)
    assert.notEqual(first, second, 'each hash has its own salt')
    assert.equal(await verifyPassword('correct horse battery staple', first), true)
    assert.equal(await verifyPassword('correct horse battery stapler', first), false)
    assert.equal(await verifyPassword('anything', 'bcrypt$nope'), false)
  })

  it('keeps the parameters in the hash, so older cheaper hashes still verify', async () => {
    const cheap = await hashPassword('old password', 14)
    assert.match(cheap, /^scrypt\$14\$/)
    assert.equal(await verifyPassword('old password', cheap), true)
  })

  it('checks unknown users against a dummy hash of the same cost as real ones', async () => {
    const real = await hashPassword('whatever')
    const params = (hash: string) => hash.split('$').slice(0, 4).join('$')
    assert.equal(params(DUMMY_PASSWORD_HASH), params(real))
    assert.equal(await verifyPassword('whatever', DUMMY_PASSWORD_HASH), false)
  })
})
