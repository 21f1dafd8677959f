import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount } from '../helpers/factories.ts'

/** A HEAD is a GET without its body: counted against the GET's limits, with their headers. */
describe('HEAD under real rate limits', () => {
  const api = useTestApp({ rateLimits: { mode: 'real' } })

  it('HEAD /v4/images answers with the headers of the GET, X-Ratelimit-* included', async () => {
    const owner = await createAccount(api)
    const get = await api.request({ method: 'GET', url: '/v4/images', headers: owner.headers })
    assert.equal(get.headers['x-ratelimit-limit'], '20')
    const head = await api.request({ method: 'HEAD', url: '/v4/images', headers: owner.headers })
    assert.equal(head.status, 200)
    assert.equal(head.headers['x-ratelimit-limit'], '20', 'HEAD carries the GET headers')
    assert.ok(head.headers['x-ratelimit-remaining'] !== undefined, 'X-Ratelimit-Remaining on HEAD')
  })

  it('HEAD is counted: once the images list is spent, HEAD /v4/images is refused too', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 20; i++) {
      const res = await api.request({ method: 'GET', url: '/v4/images', headers: owner.headers })
      assert.equal(res.status, 200, `call ${i}`)
    }
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/images', headers: owner.headers })).status,
      429,
    )
    const head = await api.request({ method: 'HEAD', url: '/v4/images', headers: owner.headers })
    assert.equal(head.status, 429, 'HEAD must not be a way around the 20-a-minute limit')
  })
})

/** One operation served at two paths (the VPC IP list) has one count, not one per path. */
describe('the VPC IP list served at two paths, under real rate limits', () => {
  const api = useTestApp({ rateLimits: { mode: 'real' } })

  it('/vpcs/ips and /networking/vpcs/ips share one per-operation count', async () => {
    const owner = await createAccount(api)
    const first = await api.request({ method: 'GET', url: '/v4/networking/vpcs/ips', headers: owner.headers })
    assert.equal(first.status, 200)
    assert.equal(first.headers['x-ratelimit-limit'], '200')
    assert.equal(first.headers['x-ratelimit-remaining'], '199')
    const alias = await api.request({ method: 'GET', url: '/v4/vpcs/ips', headers: owner.headers })
    assert.equal(alias.status, 200)
    assert.equal(alias.headers['x-ratelimit-limit'], '200')
    assert.equal(
      alias.headers['x-ratelimit-remaining'],
      '198',
      'the alias is the same operation: alternating paths must not double the 200-a-minute budget',
    )
  })
})
