import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { KEY_TYPE_REASON } from '../../../src/modules/profile/ssh-keys/ssh-key-parser.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../helpers/factories.ts'
import { KEYS } from './ssh-key-fixtures.ts'

describe('profile update refusals', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  const put = (payload: unknown, who: TestUser = owner) =>
    api.request({ method: 'PUT', url: '/v4/profile', headers: who.headers, payload: payload as object })

  it('refuses an invalid email', async () => {
    const res = await put({ email: 'not-an-address' })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ field: 'email', reason: 'email must be a valid email' }] })
  })

  it('refuses a time zone that is not an IANA zone', async () => {
    for (const timezone of ['Mars/Olympus_Mons', '+01:00', 'EST+5', '']) {
      const res = await put({ timezone })
      assert.equal(res.status, 400, timezone)
      assert.equal(res.body.errors[0].field, 'timezone')
    }
  })

  it('a zone accepted before is accepted again, and one never valid stays refused between them', async () => {
    for (const timezone of ['America/Chicago', 'Mars/Olympus_Mons', 'America/Chicago', 'America/Chicag']) {
      const res = await put({ timezone })
      if (timezone === 'America/Chicago') {
        assert.equal(res.status, 200, JSON.stringify(res.body))
        assert.equal(res.body.timezone, timezone)
      } else {
        assert.equal(res.status, 400, timezone)
        assert.equal(res.body.errors[0].field, 'timezone')
      }
    }
  })

  it('refuses a shell_auth_method outside its three values', async () => {
    const res = await put({ shell_auth_method: 'keys_and_smoke_signals' })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        {
          field: 'shell_auth_method',
          reason: 'shell_auth_method must be one of: password_keys, keys_only, disabled',
        },
      ],
    })
  })

  it('never turns ip_whitelist_enabled on', async () => {
    const res = await put({ ip_whitelist_enabled: true })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        { field: 'ip_whitelist_enabled', reason: 'IP whitelisting is deprecated and cannot be enabled' },
      ],
    })
    const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    assert.equal(profile.body.ip_whitelist_enabled, false)
  })

  it('does not let a user change restricted or two_factor_auth here', async () => {
    const member = await createUser(api, owner, { restricted: true })
    const res = await put({ restricted: false, two_factor_auth: true }, member)
    assert.equal(res.status, 400)
    assert.deepEqual(
      res.body.errors.map((e: { field: string }) => e.field),
      ['restricted', 'two_factor_auth'],
    )
    const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: member.headers })
    assert.equal(profile.body.restricted, true)
  })

  it('checks every authorized key and names the bad one by index', async () => {
    const res = await put({ authorized_keys: [KEYS.rsa, 'ssh-foo AAAA', 'ssh-ed25519 bm90IGEga2V5'] })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body.errors, [
      { field: 'authorized_keys[1]', reason: KEY_TYPE_REASON },
      { field: 'authorized_keys[2]', reason: 'SSH Key key-data is not a valid ssh-ed25519 public key.' },
    ])
  })

  it('refuses wrong JSON types and reports all failures of one request together', async () => {
    const res = await put({ email_notifications: 'false', timezone: 'Nowhere/Land', email: 'x' })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field).sort(), [
      'email',
      'email_notifications',
    ])
    const rules = await put({ timezone: 'Nowhere/Land', ip_whitelist_enabled: true })
    assert.deepEqual(
      rules.body.errors.map((e: { field: string }) => e.field),
      ['timezone', 'ip_whitelist_enabled'],
    )
  })

  it('changes nothing when a request is refused', async () => {
    const before = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    await put({ email: 'fine@example.com', timezone: 'Nowhere/Land' })
    const after = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    assert.deepEqual(after.body, before.body)
  })
})
