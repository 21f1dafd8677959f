import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import { recordLogin } from '../../../src/modules/profile/logins/logins.service.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../helpers/factories.ts'
import { KEYS } from './ssh-key-fixtures.ts'

describe('account users show profile data', () => {
  const api = useTestApp()

  const addKey = async (who: TestUser, label: string) => {
    const res = await api.request({
      method: 'POST',
      url: '/v4/profile/sshkeys',
      headers: who.headers,
      payload: { label, ssh_key: KEYS.ed25519 },
    })
    assert.equal(res.status, 200)
  }

  it('lists each user’s SSH key labels and latest login attempt', async () => {
    const owner = await createAccount(api)
    const alice = await createUser(api, owner, { restricted: true })
    const bob = await createUser(api, owner, { restricted: false })
    await addKey(alice, 'laptop')
    await addKey(alice, 'desktop')
    await addKey(bob, 'work')
    const now = nowTimestamp(api.clock)
    await recordLogin(api.db, api.clock, {
      user: alice.user,
      ip: '192.0.2.1',
      status: 'successful',
      datetime: addSeconds(now, -7200),
    })
    await recordLogin(api.db, api.clock, {
      user: alice.user,
      ip: '192.0.2.1',
      status: 'failed',
      datetime: addSeconds(now, -60),
    })
    await recordLogin(api.db, api.clock, {
      user: bob.user,
      ip: '192.0.2.2',
      status: 'successful',
      datetime: addSeconds(now, -30),
    })
    await recordLogin(api.db, api.clock, {
      user: bob.user,
      ip: '192.0.2.2',
      status: 'failed',
      datetime: addSeconds(now, -3600),
    })

    const res = await api.request({ method: 'GET', url: '/v4/account/users', headers: owner.headers })
    assert.equal(res.status, 200)
    const byName = new Map(res.body.data.map((u: { username: string }) => [u.username, u]))
    const a = byName.get(alice.user.username) as { ssh_keys: string[]; last_login: unknown }
    const b = byName.get(bob.user.username) as { ssh_keys: string[]; last_login: unknown }
    const o = byName.get(owner.user.username) as { ssh_keys: string[]; last_login: unknown }
    assert.deepEqual(a.ssh_keys, ['laptop', 'desktop'])
    assert.deepEqual(a.last_login, { login_datetime: addSeconds(now, -60), status: 'failed' })
    assert.deepEqual(b.ssh_keys, ['work'])
    assert.deepEqual(b.last_login, { login_datetime: addSeconds(now, -30), status: 'successful' })
    assert.deepEqual(o.ssh_keys, [])
    assert.equal(o.last_login, null)

    const one = await api.request({
      method: 'GET',
      url: `/v4/account/users/${alice.user.username}`,
      headers: owner.headers,
    })
    assert.deepEqual(one.body.ssh_keys, ['laptop', 'desktop'])
    assert.deepEqual(one.body.last_login, { login_datetime: addSeconds(now, -60), status: 'failed' })
  })

  it('reflects two-factor and the verified phone number', async () => {
    const owner = await createAccount(api)
    await api.db
      .updateTable('users')
      .set({ verified_phone_number: '+12015550123' })
      .where('id', '=', owner.user.id)
      .execute()
    const res = await api.request({
      method: 'GET',
      url: `/v4/account/users/${owner.user.username}`,
      headers: owner.headers,
    })
    assert.equal(res.body.verified_phone_number, '+12015550123')
    assert.equal(res.body.tfa_enabled, false)
  })
})
