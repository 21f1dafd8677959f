import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { trustDevice, useTrustedDevice } from '../../../../src/modules/profile/devices/devices.service.ts'
import { type TestApp, useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'

describe('trusted devices', () => {
  const api = useTestApp()

  const trust = (who: TestUser, remoteAddr = '203.0.113.7') =>
    trustDevice(api.db, api.app.secretBox, api.clock, { userId: who.user.id, userAgent: FIREFOX, remoteAddr })

  it('lists and views the user’s remember-me sessions in the real key order', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    const { device } = await trust(owner)
    await trust(member)
    const res = await api.request({ method: 'GET', url: '/v4/profile/devices', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 1)
    const listed = res.body.data[0]
    assert.deepEqual(Object.keys(listed), [
      'id',
      'created',
      'expiry',
      'user_agent',
      'last_authenticated',
      'last_remote_addr',
    ])
    assert.equal(listed.id, device.id)
    assert.equal(listed.user_agent, FIREFOX)
    assert.equal(listed.last_remote_addr, '203.0.113.7')
    assert.equal(Date.parse(`${listed.expiry}Z`) - Date.parse(`${listed.created}Z`), 30 * 24 * 3600 * 1000)
    const view = await api.request({
      method: 'GET',
      url: `/v4/profile/devices/${device.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(view.body, listed)
    const theirs = await api.request({
      method: 'GET',
      url: `/v4/profile/devices/${device.id}`,
      headers: member.headers,
    })
    assert.equal(theirs.status, 404)
  })

  it('shows only active devices: an expired one is gone', async () => {
    const owner = await createAccount(api)
    const { device } = await trust(owner)
    api.clock.advance(30 * 24 * 3600 * 1000)
    try {
      const list = await api.request({ method: 'GET', url: '/v4/profile/devices', headers: owner.headers })
      assert.equal(list.body.results, 0)
      const view = await api.request({
        method: 'GET',
        url: `/v4/profile/devices/${device.id}`,
        headers: owner.headers,
      })
      assert.equal(view.status, 404)
    } finally {
      api.clock.advance(-30 * 24 * 3600 * 1000)
    }
  })

  it('revoking a device ends its remember-me session', async () => {
    const owner = await createAccount(api)
    const { device, secret } = await trust(owner)
    const use = (remoteAddr: string) =>
      useTrustedDevice(api.db, api.app.secretBox, api.clock, { userId: owner.user.id, secret, remoteAddr })
    assert.equal(await use('198.51.100.1'), true)
    const seen = await api.request({
      method: 'GET',
      url: `/v4/profile/devices/${device.id}`,
      headers: owner.headers,
    })
    assert.equal(seen.body.last_remote_addr, '198.51.100.1', 'a use is recorded')
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/profile/devices/${device.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    assert.equal(await use('198.51.100.1'), false, 'the device must log in again')
    const list = await api.request({ method: 'GET', url: '/v4/profile/devices', headers: owner.headers })
    assert.equal(list.body.results, 0)
  })

  it('keeps the device secret as a digest only, and refuses a wrong or foreign secret', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    const { secret } = await trust(owner)
    const rows = await api.db
      .selectFrom('trusted_devices')
      .selectAll()
      .where('user_id', '=', owner.user.id)
      .execute()
    assert.ok(rows.every((r) => !JSON.stringify(r).includes(secret)))
    assert.equal(
      await useTrustedDevice(api.db, api.app.secretBox, api.clock, {
        userId: member.user.id,
        secret,
        remoteAddr: '::1',
      }),
      false,
    )
    assert.equal(
      await useTrustedDevice(api.db, api.app.secretBox, api.clock, {
        userId: owner.user.id,
        secret: `${secret}x`,
        remoteAddr: '::1',
      }),
      false,
    )
  })

  it('refuses X-Filter fields (none is filterable)', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'GET',
      url: '/v4/profile/devices',
      headers: { ...owner.headers, 'x-filter': '{"user_agent":"x"}' },
    })
    assert.equal(res.status, 400)
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/devices',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/devices' }),
    },
    {
      method: 'GET',
      route: '/v4/profile/devices/{id}',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/profile/devices/${(await trustFor(api, owner)).id}` }),
    },
    {
      method: 'DELETE',
      route: '/v4/profile/devices/{id}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/profile/devices/${(await trustFor(api, owner)).id}` }),
    },
  ])
})

async function trustFor(api: TestApp, owner: TestUser) {
  const { device } = await trustDevice(api.db, api.app.secretBox, api.clock, {
    userId: owner.user.id,
    userAgent: FIREFOX,
    remoteAddr: '192.0.2.1',
  })
  return device
}
