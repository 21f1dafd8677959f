import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'

const listImages = (api: ReturnType<typeof useTestApp>, who: TestUser) =>
  api.request({ method: 'GET', url: '/v4/images', headers: who.headers })

describe('rate limits as the real service has them', () => {
  const api = useTestApp({ rateLimits: { mode: 'real' } })

  it('the images list allows 20 calls a minute per user, then answers 429 with the headers', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 20; i++) {
      const res = await listImages(api, owner)
      assert.equal(res.status, 200, `call ${i}`)
      assert.equal(res.headers['x-ratelimit-limit'], '20')
      assert.equal(res.headers['x-ratelimit-remaining'], String(19 - i))
    }
    const before = Math.floor(Date.now() / 1000)
    const refused = await listImages(api, owner)
    assert.equal(refused.status, 429)
    assert.deepEqual(refused.body, { errors: [{ reason: 'Too many requests' }] })
    assert.equal(refused.headers['x-ratelimit-limit'], '20')
    assert.equal(refused.headers['x-ratelimit-remaining'], '0')
    const retryAfter = Number(refused.headers['retry-after'])
    assert.ok(retryAfter >= 1 && retryAfter <= 60, String(retryAfter))
    const reset = Number(refused.headers['x-ratelimit-reset'])
    assert.ok(reset >= before && reset <= before + 61, `${reset} vs ${before}`)

    const other = await createAccount(api)
    assert.equal((await listImages(api, other)).status, 200, 'each user has their own count')
  })

  it('other calls report the per-operation limit', async () => {
    const owner = await createAccount(api)
    const res = await api.request({ method: 'GET', url: '/v4/profile', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.headers['x-ratelimit-limit'], '400')
    const list = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(list.headers['x-ratelimit-limit'], '200', 'a paginated collection: 200 a minute')
  })

  it('instance creates are limited to 10 in 30 seconds', async () => {
    const owner = await createAccount(api)
    const create = () =>
      api.request({
        method: 'POST',
        url: '/v4/compute/instances',
        headers: owner.headers,
        payload: { type: 'g6-nanode-1', region: 'us-iad' },
      })
    for (let i = 0; i < 10; i++) assert.equal((await create()).status, 200, `create ${i}`)
    const refused = await create()
    assert.equal(refused.status, 429)
    assert.equal(refused.headers['x-ratelimit-limit'], '10')
    assert.ok(Number(refused.headers['retry-after']) <= 30)
  })
})

describe('rate limits switched off (the default)', () => {
  const api = useTestApp()

  it('API calls are not limited', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 25; i++) assert.equal((await listImages(api, owner)).status, 200)
    const res = await listImages(api, owner)
    assert.equal(res.headers['x-ratelimit-limit'], undefined)
  })

  it('login and phone endpoints are limited all the same', async () => {
    const owner = await createAccount(api)
    const phone = await api.request({
      method: 'POST',
      url: '/v4/profile/phone-number/verify',
      headers: owner.headers,
      payload: { otp_code: '123456' },
    })
    assert.equal(phone.headers['x-ratelimit-limit'], '400')
    const login = await api.request({ method: 'GET', url: '/login' })
    assert.equal(login.headers['x-ratelimit-limit'], '400')
  })
})

describe('rate limit settings', () => {
  it('are off unless set, and refuse what they do not know', () => {
    assert.equal(loadConfig({}).rateLimits, 'off')
    assert.equal(loadConfig({ CLOUDPLANE_RATE_LIMITS: 'REAL' }).rateLimits, 'real')
    assert.equal(loadConfig({}, { 'rate-limits': 'real' }).rateLimits, 'real')
    assert.throws(() => loadConfig({ CLOUDPLANE_RATE_LIMITS: 'sometimes' }), ConfigError)
    assert.equal(
      loadConfig({ CLOUDPLANE_REDIS_URL: 'redis://127.0.0.1:6379' }).redisUrl,
      'redis://127.0.0.1:6379',
    )
    assert.throws(() => loadConfig({ CLOUDPLANE_REDIS_URL: '127.0.0.1:6379' }), ConfigError)
  })
})
