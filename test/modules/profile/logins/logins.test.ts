import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { recordLogin } from '../../../../src/modules/profile/logins/logins.service.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'

describe('profile logins', () => {
  const api = useTestApp()

  const login = (who: TestUser, status: 'successful' | 'failed', daysAgo = 0, ip = '203.0.113.9') =>
    recordLogin(api.db, api.clock, {
      user: who.user,
      ip,
      status,
      datetime: addSeconds(nowTimestamp(api.clock), -daysAgo * 24 * 3600),
    })

  it('lists the successful logins of the last 90 days, in the real key order', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    const recent = await login(owner, 'successful', 1, '2001:db8::1')
    await login(owner, 'failed', 1)
    const edge = await login(owner, 'successful', 89)
    await login(owner, 'successful', 91)
    await login(member, 'successful', 1)
    const res = await api.request({ method: 'GET', url: '/v4/profile/logins', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((l: { id: number }) => l.id),
      [recent.id, edge.id],
    )
    assert.deepEqual(Object.keys(res.body.data[0]), [
      'id',
      'datetime',
      'ip',
      'username',
      'status',
      'restricted',
    ])
    assert.deepEqual(res.body.data[0], {
      id: recent.id,
      datetime: recent.datetime,
      ip: '2001:db8::1',
      username: owner.user.username,
      status: 'successful',
      restricted: false,
    })
    const theirs = await api.request({ method: 'GET', url: '/v4/profile/logins', headers: member.headers })
    assert.equal(theirs.body.results, 1)
    assert.equal(theirs.body.data[0].restricted, true)
  })

  it('views one login; failed, old and other users’ logins are not found', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    const ok = await login(owner, 'successful')
    const failed = await login(owner, 'failed')
    const old = await login(owner, 'successful', 100)
    const view = await api.request({
      method: 'GET',
      url: `/v4/profile/logins/${ok.id}`,
      headers: owner.headers,
    })
    assert.equal(view.status, 200)
    assert.deepEqual(view.body, ok)
    for (const id of [failed.id, old.id]) {
      const res = await api.request({
        method: 'GET',
        url: `/v4/profile/logins/${id}`,
        headers: owner.headers,
      })
      assert.equal(res.status, 404)
    }
    const theirs = await api.request({
      method: 'GET',
      url: `/v4/profile/logins/${ok.id}`,
      headers: member.headers,
    })
    assert.equal(theirs.status, 404)
  })

  it('refuses X-Filter fields (none is filterable)', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'GET',
      url: '/v4/profile/logins',
      headers: { ...owner.headers, 'x-filter': '{"ip":"1.2.3.4"}' },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Cannot filter on ip', field: 'X-Filter' }] })
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/logins',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/logins' }),
    },
    {
      method: 'GET',
      route: '/v4/profile/logins/{id}',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => {
        const row = await recordLogin(api.db, api.clock, {
          user: owner.user,
          ip: '192.0.2.1',
          status: 'successful',
        })
        return { url: `/v4/profile/logins/${row.id}` }
      },
    },
  ])
})
