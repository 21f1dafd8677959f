import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, createToken } from '../helpers/factories.ts'

describe('response headers', () => {
  const api = useTestApp()

  it('every response carries the spec version, CORS and security headers, errors included', async () => {
    for (const url of ['/v4/regions', '/v4/nothing', '/v4/profile']) {
      const res = await api.request({ method: 'GET', url })
      assert.equal(res.headers['x-spec-version'], '4.174.0', url)
      assert.equal(res.headers['access-control-allow-origin'], '*')
      assert.equal(res.headers['access-control-allow-methods'], 'HEAD, GET, OPTIONS, POST, PUT, DELETE')
      assert.equal(
        res.headers['access-control-allow-headers'],
        'Authorization, Origin, X-Requested-With, Content-Type, Accept, X-Filter',
      )
      assert.equal(
        res.headers['access-control-expose-headers'],
        'X-OAuth-Scopes, X-Accepted-OAuth-Scopes, X-Status',
      )
      assert.equal(res.headers['strict-transport-security'], 'max-age=31536000')
      assert.equal(res.headers['x-frame-options'], 'DENY')
      assert.equal(res.headers['x-content-type-options'], 'nosniff')
      assert.equal(res.headers['x-xss-protection'], '1; mode=block')
      assert.equal(res.headers['content-security-policy'], "default-src 'none'")
      assert.equal(res.headers.vary, 'Authorization, X-Filter')
      assert.match(String(res.headers['x-request-id']), /^[0-9a-f-]{36}$/)
    }
  })

  it('answers a CORS preflight for any path', async () => {
    const res = await api.request({
      method: 'OPTIONS',
      url: '/v4/vpcs/12',
      headers: { origin: 'https://console.example.com', 'access-control-request-method': 'PUT' },
    })
    assert.equal(res.status, 204)
    assert.equal(res.headers['access-control-allow-origin'], '*')
    assert.equal(res.headers['access-control-max-age'], '86400')
  })

  it('HEAD answers the headers of a GET', async () => {
    const res = await api.request({ method: 'HEAD', url: '/v4/regions/us-iad' })
    assert.equal(res.status, 200)
    assert.equal(res.body, '')
    assert.equal(res.headers['x-spec-version'], '4.174.0')
  })

  it('reports the token scopes and the scopes the route accepts', async () => {
    const owner = await createAccount(api)
    const narrow = await createToken(api, owner.user.id, { scopes: 'events:read_only vpc:read_write' })
    const res = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { authorization: `Bearer ${narrow}` },
    })
    assert.equal(res.status, 200)
    assert.equal(res.headers['x-oauth-scopes'], 'events:read_only vpc:read_write')
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'events:read_only')
    assert.equal(
      res.headers['x-customer-uuid'],
      (
        await api.db
          .selectFrom('accounts')
          .select('uuid')
          .where('id', '=', owner.accountId)
          .executeTakeFirstOrThrow()
      ).uuid,
    )
    const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    assert.equal(profile.headers['x-oauth-scopes'], '*')
    assert.equal(profile.headers['x-accepted-oauth-scopes'], '*')
  })

  it('health and readiness', async () => {
    const health = await api.request({ method: 'GET', url: '/healthz' })
    assert.equal(health.status, 200)
    assert.deepEqual(health.body, { status: 'ok' })
    const ready = await api.request({ method: 'GET', url: '/readyz' })
    assert.equal(ready.status, 200)
    api.app.readiness.ready = false
    try {
      const starting = await api.request({ method: 'GET', url: '/readyz' })
      assert.equal(starting.status, 503)
      const regions = await api.request({ method: 'GET', url: '/v4/regions' })
      assert.equal(regions.status, 503)
      assert.deepEqual(regions.body, { errors: [{ reason: 'The server is starting; try again shortly' }] })
      assert.equal((await api.request({ method: 'GET', url: '/healthz' })).status, 200)
    } finally {
      api.app.readiness.ready = true
    }
  })
})
