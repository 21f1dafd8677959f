import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { bearer, createAccount } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'

describe('regions', () => {
  const api = useTestApp()

  it('lists the real region catalogue in recorded order, without a token', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/regions' })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 25)
    assert.equal(res.body.pages, 1)
    assert.equal(res.body.page, 1)
    assert.equal(res.body.data[0].id, 'ap-west')
    assert.equal(res.body.data.at(-1).id, 'ap-northeast')
    const iad = res.body.data.find((r: { id: string }) => r.id === 'us-iad')
    assert.deepEqual(Object.keys(iad), [
      'id',
      'label',
      'country',
      'capabilities',
      'status',
      'resolvers',
      'site_type',
    ])
    assert.equal(iad.label, 'Washington, DC')
    assert.equal(iad.country, 'us')
    assert.ok(iad.capabilities.includes('VPCs'))
    assert.equal(iad.status, 'ok')
    assert.equal(iad.resolvers.ipv4.split(', ').length, 10)
    assert.equal(res.headers['x-accepted-oauth-scopes'], '*')
  })

  it('pages the list: page_size bounds and a page past the end', async () => {
    const page2 = await api.request({ method: 'GET', url: '/v4/regions?page=2&page_size=25' })
    assert.equal(page2.status, 200)
    assert.equal(page2.body.page, 1, 'a page past the last is answered with the last page')
    assert.equal(page2.body.pages, 1)
    const small = await api.request({ method: 'GET', url: '/v4/regions?page_size=24' })
    assert.equal(small.status, 400)
    assert.deepEqual(small.body, {
      errors: [{ reason: 'page_size must be between 25 and 500', field: 'page_size' }],
    })
    const big = await api.request({ method: 'GET', url: '/v4/regions?page_size=501' })
    assert.equal(big.status, 400)
    const zero = await api.request({ method: 'GET', url: '/v4/regions?page=0' })
    assert.deepEqual(zero.body, {
      errors: [{ reason: 'page must be an integer of at least 1', field: 'page' }],
    })
    const text = await api.request({ method: 'GET', url: '/v4/regions?page=abc&page_size=x' })
    assert.equal(text.status, 400)
    assert.deepEqual(
      text.body.errors.map((e: { field: string }) => e.field),
      ['page', 'page_size'],
    )
  })

  it('views one region and 404s an unknown one', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/regions/us-ord' })
    assert.equal(res.status, 200)
    assert.equal(res.body.label, 'Chicago, IL')
    const missing = await api.request({ method: 'GET', url: '/v4/regions/xx-nowhere' })
    assert.equal(missing.status, 404)
    assert.deepEqual(missing.body, { errors: [{ reason: 'Not found' }] })
  })

  it('refuses any X-Filter field on regions (none is filterable)', async () => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/regions',
      headers: { 'x-filter': '{"country":"us"}' },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Cannot filter on country', field: 'X-Filter' }] })
  })

  it('lists plan availability across pages, ordered by region then plan', async () => {
    const first = await api.request({ method: 'GET', url: '/v4/regions/availability' })
    assert.equal(first.status, 200)
    assert.equal(first.body.results, 25 * 13)
    assert.equal(first.body.pages, 4)
    assert.equal(first.body.data.length, 100)
    assert.deepEqual(first.body.data[0], {
      region: 'ap-northeast',
      plan: 'gpu-rtx6000-1.1',
      available: false,
    })
    const last = await api.request({ method: 'GET', url: '/v4/regions/availability?page=4' })
    assert.equal(last.body.data.length, 25)
  })

  it('filters availability by region, plan and available', async () => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/regions/availability',
      headers: { 'x-filter': JSON.stringify({ region: 'us-iad', available: true }) },
    })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 9)
    assert.ok(res.body.data.every((r: { plan: string }) => r.plan.startsWith('premium')))
    const gpu = await api.request({
      method: 'GET',
      url: '/v4/regions/availability',
      headers: { 'x-filter': JSON.stringify({ plan: { '+contains': 'gpu' }, available: true }) },
    })
    assert.equal(gpu.body.results, 0)
    assert.deepEqual(gpu.body, { data: [], page: 1, pages: 1, results: 0 })
  })

  it("returns one region's availability as a bare array", async () => {
    const res = await api.request({ method: 'GET', url: '/v4/regions/us-east/availability' })
    assert.equal(res.status, 200)
    assert.ok(Array.isArray(res.body))
    assert.equal(res.body.length, 13)
    assert.ok(res.body.every((r: { available: boolean }) => r.available === false))
    const missing = await api.request({ method: 'GET', url: '/v4/regions/nowhere/availability' })
    assert.equal(missing.status, 404)
  })

  it('accepts a valid token and refuses an invalid one even though no token is needed', async () => {
    const owner = await createAccount(api)
    const ok = await api.request({ method: 'GET', url: '/v4/regions', headers: owner.headers })
    assert.equal(ok.status, 200)
    assert.equal(ok.headers['x-oauth-scopes'], '*')
    const bad = await api.request({ method: 'GET', url: '/v4/regions', headers: bearer('f'.repeat(64)) })
    assert.equal(bad.status, 401)
    assert.deepEqual(bad.body, { errors: [{ reason: 'Invalid Token' }] })
  })

  it('is served under /v4beta too', async () => {
    const res = await api.request({ method: 'GET', url: '/v4beta/regions/us-iad' })
    assert.equal(res.status, 200)
    assert.equal(res.body.id, 'us-iad')
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/regions',
      scopes: 'public',
      success: 200,
      prepare: async () => ({ url: '/v4/regions' }),
    },
    {
      method: 'GET',
      route: '/v4/regions/{id}',
      scopes: 'public',
      success: 200,
      prepare: async () => ({ url: '/v4/regions/us-iad' }),
    },
    {
      method: 'GET',
      route: '/v4/regions/availability',
      scopes: 'public',
      success: 200,
      prepare: async () => ({ url: '/v4/regions/availability' }),
    },
    {
      method: 'GET',
      route: '/v4/regions/{id}/availability',
      scopes: 'public',
      success: 200,
      prepare: async () => ({ url: '/v4/regions/us-iad/availability' }),
    },
  ])
})
