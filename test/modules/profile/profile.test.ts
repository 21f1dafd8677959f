import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { withComment } from './profile-helpers.ts'
import { KEYS } from './ssh-key-fixtures.ts'

describe('profile', () => {
  const api = useTestApp()

  it('shows the acting user with every field in the real order', async () => {
    const owner = await createAccount(api)
    const res = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.deepEqual(Object.keys(res.body), [
      'uid',
      'username',
      'email',
      'verified_phone_number',
      'timezone',
      'email_notifications',
      'referrals',
      'ip_whitelist_enabled',
      'shell_auth_method',
      'authorized_keys',
      'two_factor_auth',
      'restricted',
      'authentication_type',
    ])
    assert.equal(res.body.uid, owner.user.id)
    assert.equal(res.body.authorized_keys, null)
    assert.equal(res.headers['x-accepted-oauth-scopes'], '*')
  })

  it('updates the writable fields and answers with the new profile', async () => {
    const owner = await createAccount(api)
    const key = withComment(KEYS.ed25519, 'me@laptop')
    const res = await api.request({
      method: 'PUT',
      url: '/v4/profile',
      headers: owner.headers,
      payload: {
        email: 'new-address@example.org',
        timezone: 'Europe/Lisbon',
        email_notifications: false,
        shell_auth_method: 'keys_only',
        authorized_keys: [key, KEYS.rsa],
        ip_whitelist_enabled: false,
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.email, 'new-address@example.org')
    assert.equal(res.body.timezone, 'Europe/Lisbon')
    assert.equal(res.body.email_notifications, false)
    assert.equal(res.body.shell_auth_method, 'keys_only')
    assert.deepEqual(res.body.authorized_keys, [key, KEYS.rsa])
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'account:read_write')

    const again = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    assert.deepEqual(again.body, res.body, 'the change is stored')
  })

  it('keeps fields that are not sent, and stores an empty key list as null', async () => {
    const owner = await createAccount(api)
    await api.request({
      method: 'PUT',
      url: '/v4/profile',
      headers: owner.headers,
      payload: { authorized_keys: [KEYS.ecdsa256], timezone: 'Asia/Tokyo' },
    })
    const res = await api.request({
      method: 'PUT',
      url: '/v4/profile',
      headers: owner.headers,
      payload: { authorized_keys: [] },
    })
    assert.equal(res.status, 200)
    assert.equal(res.body.authorized_keys, null)
    assert.equal(res.body.timezone, 'Asia/Tokyo')
    const cleared = await api.request({
      method: 'PUT',
      url: '/v4/profile',
      headers: owner.headers,
      payload: { authorized_keys: null },
    })
    assert.equal(cleared.body.authorized_keys, null)
  })

  it('accepts a whole profile sent back unchanged, as SDKs do, ignoring read-only fields', async () => {
    const owner = await createAccount(api)
    const current = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    const res = await api.request({
      method: 'PUT',
      url: '/v4/profile',
      headers: owner.headers,
      payload: { ...current.body, uid: 1, username: 'someone-else', authentication_type: 'github' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(res.body, current.body)
  })

  it('accepts time zone links and legacy names known to the IANA database', async () => {
    const owner = await createAccount(api)
    for (const timezone of ['US/Eastern', 'UTC', 'Etc/GMT+5', 'America/Argentina/Buenos_Aires']) {
      const res = await api.request({
        method: 'PUT',
        url: '/v4/profile',
        headers: owner.headers,
        payload: { timezone },
      })
      assert.equal(res.status, 200, timezone)
      assert.equal(res.body.timezone, timezone)
    }
  })

  it('records profile_update, visible to the user and the account, not to other restricted users', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    const other = await createUser(api, owner, { restricted: true })
    const res = await api.request({
      method: 'PUT',
      url: '/v4/profile',
      headers: member.headers,
      payload: { email_notifications: false },
    })
    assert.equal(res.status, 200)
    const filter = JSON.stringify({ action: 'profile_update' })
    const own = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...member.headers, 'x-filter': filter },
    })
    assert.equal(own.body.results, 1)
    const event = own.body.data[0]
    assert.equal(event.username, member.user.username)
    assert.deepEqual(event.entity, {
      label: member.user.username,
      id: null,
      type: 'profile',
      url: '/v4/profile',
    })
    const admin = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': filter },
    })
    assert.equal(admin.body.results, 1)
    const hidden = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...other.headers, 'x-filter': filter },
    })
    assert.equal(hidden.body.results, 0)
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile',
      scopes: [],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile' }),
    },
    {
      method: 'PUT',
      route: '/v4/profile',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile', payload: { timezone: 'Europe/Paris' } }),
    },
  ])
})
