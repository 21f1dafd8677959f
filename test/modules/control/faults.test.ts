import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { beforeEach, describe, it } from 'node:test'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { adminHeaders, bootstrapHeaders, type ControlApp, useControlApp } from './control-app.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp

async function vpcCount(api: ControlApp): Promise<number> {
  const res = await api.request({ method: 'GET', url: '/v4/vpcs', headers: bootstrapHeaders })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.results
}

const createVpc = (api: ControlApp, label: string, headers: Record<string, string> = bootstrapHeaders) =>
  api.request({ method: 'POST', url: '/v4/vpcs', headers, payload: { label, region: 'us-iad' } })

describe('fault rules', () => {
  const api = useControlApp()
  // A test that fails midway leaves no rule behind for the next.
  beforeEach(async () => {
    await api.admin('DELETE', '/faults')
  })

  it('a 500 rule answers with the real error body before the handler: the write changes nothing', async () => {
    const before = await vpcCount(api)
    const rule = await api.admin('POST', '/faults', {
      method: 'POST',
      path: '/v4/vpcs',
      status: 500,
      times: 1,
    })
    assert.equal(rule.status, 200, JSON.stringify(rule.body))
    assert.deepEqual(rule.body.effect, { kind: 'status', status: 500 })

    const faulted = await createVpc(api, 'faulted-write')
    assert.equal(faulted.status, 500)
    assert.deepEqual(faulted.body, { errors: [{ reason: 'Please try again' }] })
    assert.equal(await vpcCount(api), before)

    // `times: 1`: the next one goes through, and the listing says the rule fired once.
    const next = await createVpc(api, 'after-fault')
    assert.equal(next.status, 200, JSON.stringify(next.body))
    assert.equal(await vpcCount(api), before + 1)
    const listed = await api.admin('GET', '/faults')
    assert.equal(listed.body.data.length, 1)
    assert.equal(listed.body.data[0].fired, 1)
    assert.equal((await api.admin('DELETE', '/faults')).body.deleted, 1)
  })

  it('503 carries X-Maintenance-Mode; 429 Retry-After and X-RateLimit-*; 400 a reason and field; 502', async () => {
    await api.admin('POST', '/faults', { path: '/v4/regions', status: 503 })
    const maintenance = await api.request({ method: 'GET', url: '/v4/regions' })
    assert.equal(maintenance.status, 503)
    assert.equal(maintenance.headers['x-maintenance-mode'], 'true')
    assert.ok(Number(maintenance.headers['retry-after']) > 0)
    assert.equal(maintenance.body.errors[0].reason, 'Currently in maintenance mode.')
    await api.admin('DELETE', '/faults')

    const rateLimit = await api.admin('POST', '/faults', { path: '/v4/regions', status: 429, retry_after: 7 })
    assert.deepEqual(rateLimit.body.effect, { kind: 'status', status: 429, retry_after: 7 })
    const limited = await api.request({ method: 'GET', url: '/v4/regions' })
    assert.equal(limited.status, 429)
    assert.deepEqual(limited.body, { errors: [{ reason: 'Too many requests' }] })
    assert.equal(limited.headers['retry-after'], '7')
    assert.equal(limited.headers['x-ratelimit-remaining'], '0')
    assert.ok(Number(limited.headers['x-ratelimit-limit']) > 0)
    const reset = Number(limited.headers['x-ratelimit-reset'])
    assert.ok(Math.abs(reset - (api.clock.now().getTime() / 1000 + 7)) <= 2, String(reset))
    await api.admin('DELETE', '/faults')

    // The limit announced is the tightest of the real service's on that route, as a counted 429's.
    for (const [method, url, limit] of [
      ['GET', '/v4/images', '20'],
      ['POST', '/v4/compute/instances', '10'],
      ['GET', '/v4/vpcs', '200'],
      ['GET', '/v4/profile', '400'],
    ] as const) {
      await api.admin('POST', '/faults', { method, path: url, status: 429 })
      const res = await api.request({
        method,
        url,
        headers: bootstrapHeaders,
        payload: method === 'POST' ? {} : undefined,
      })
      assert.equal(res.status, 429, url)
      assert.equal(res.headers['x-ratelimit-limit'], limit, url)
      await api.admin('DELETE', '/faults')
    }

    const refusing = await api.admin('POST', '/faults', {
      path: '/v4/vpcs',
      status: 400,
      reason: 'Label is taken',
      field: 'label',
    })
    assert.deepEqual(refusing.body.effect, {
      kind: 'status',
      status: 400,
      reason: 'Label is taken',
      field: 'label',
    })
    const refused = await createVpc(api, 'refused')
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, { errors: [{ reason: 'Label is taken', field: 'label' }] })
    await api.admin('DELETE', '/faults')

    await api.admin('POST', '/faults', { path: '/v4/regions*', status: 502 })
    const gateway = await api.request({ method: 'GET', url: '/v4/regions/us-iad' })
    assert.equal(gateway.status, 502)
    assert.deepEqual(gateway.body, { errors: [{ reason: 'Bad Gateway' }] })
    await api.admin('DELETE', '/faults')

    // A rule names the path as clients send it: /v4beta is served by the /v4 routes, not matched as them.
    await api.admin('POST', '/faults', { path: '/v4beta/regions*', status: 502 })
    assert.equal((await api.request({ method: 'GET', url: '/v4beta/regions/us-iad' })).status, 502)
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions/us-iad' })).status, 200)
    await api.admin('DELETE', '/faults')
  })

  it('matches by method, path glob, account and token; the control API is never faulted', async () => {
    const alice = await createAccount(asTestApp(api))
    const bob = await createAccount(asTestApp(api))
    await api.admin('POST', '/faults', {
      username: alice.user.username,
      method: 'GET',
      path: '/v4/vpcs*',
      status: 500,
    })
    assert.equal((await api.request({ method: 'GET', url: '/v4/vpcs', headers: alice.headers })).status, 500)
    assert.equal((await api.request({ method: 'GET', url: '/v4/vpcs', headers: bob.headers })).status, 200)
    assert.equal((await createVpc(api, 'alice-post', alice.headers)).status, 200)
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/regions', headers: alice.headers })).status,
      200,
    )
    assert.equal((await api.admin('GET', '/clock')).status, 200)
    await api.admin('DELETE', '/faults')

    const tokens = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: bob.headers })
    const tokenId = tokens.body.data[0].id as number
    const rule = await api.admin('POST', '/faults', { token_id: tokenId, status: 503 })
    assert.equal((await api.request({ method: 'GET', url: '/v4/vpcs', headers: bob.headers })).status, 503)
    assert.equal((await api.request({ method: 'GET', url: '/v4/vpcs', headers: alice.headers })).status, 200)
    assert.equal((await api.admin('DELETE', `/faults/${rule.body.id}`)).status, 200)
    assert.equal((await api.request({ method: 'GET', url: '/v4/vpcs', headers: bob.headers })).status, 200)
  })

  it('adds latency, fixed or in a range, and the request then goes on', async () => {
    await api.admin('POST', '/faults', { path: '/v4/regions', latency_ms: 120 })
    let started = performance.now()
    const slow = await api.request({ method: 'GET', url: '/v4/regions' })
    assert.equal(slow.status, 200)
    assert.ok(performance.now() - started >= 115, 'the fixed delay was applied')
    await api.admin('DELETE', '/faults')

    const ranged = await api.admin('POST', '/faults', {
      path: '/v4/regions',
      latency_ms: 60,
      latency_max_ms: 90,
    })
    // Listed in the fields it was added with.
    assert.deepEqual((await api.admin('GET', '/faults')).body.data[0].effect, {
      kind: 'latency',
      latency_ms: 60,
      latency_max_ms: 90,
    })
    assert.equal(ranged.status, 200)
    started = performance.now()
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 200)
    assert.ok(performance.now() - started >= 55, 'the ranged delay was applied')
    await api.admin('DELETE', '/faults')
  })

  it('a seed makes the random choices repeatable; listing counts the firings', async () => {
    const run = async () => {
      const applied = await api.admin('POST', '/faults/presets/unstable', { share: 0.5, seed: 'repeatable' })
      assert.equal(applied.status, 200, JSON.stringify(applied.body))
      const statuses: number[] = []
      for (let i = 0; i < 24; i++)
        statuses.push((await api.request({ method: 'GET', url: '/v4/regions' })).status)
      const listed = await api.admin('GET', '/faults')
      assert.equal(listed.body.data[0].preset, 'unstable')
      assert.equal(listed.body.data[0].fired, statuses.filter((s) => s === 500).length)
      await api.admin('DELETE', '/faults')
      return statuses
    }
    const first = await run()
    assert.ok(first.includes(500) && first.includes(200), first.join(','))
    assert.deepEqual(await run(), first)
  })

  it('a rule of its own with a probability, a seed and a count: that many of the drawn requests, the same ones again', async () => {
    const run = async () => {
      const rule = await api.admin('POST', '/faults', {
        path: '/v4/regions',
        status: 500,
        probability: 0.4,
        seed: 'own-rule',
        times: 3,
      })
      assert.equal(rule.status, 200, JSON.stringify(rule.body))
      assert.equal(rule.body.probability, 0.4)
      const statuses: number[] = []
      for (let i = 0; i < 24; i++)
        statuses.push((await api.request({ method: 'GET', url: '/v4/regions' })).status)
      const listed = await api.admin('GET', '/faults')
      assert.equal(listed.body.data[0].fired, 3)
      await api.admin('DELETE', '/faults')
      return statuses
    }
    const first = await run()
    assert.equal(first.filter((s) => s === 500).length, 3, first.join(','))
    // Not simply the first three: the draws chose which.
    assert.notDeepEqual(first.slice(0, 3), [500, 500, 500])
    assert.deepEqual(await run(), first)

    // Probability 0 never fires.
    await api.admin('POST', '/faults', { path: '/v4/regions', status: 500, probability: 0 })
    for (let i = 0; i < 5; i++)
      assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 200)
    assert.equal((await api.admin('GET', '/faults')).body.data[0].fired, 0)
    await api.admin('DELETE', '/faults')
  })

  it('a preset limited to a path leaves the rest of the API alone', async () => {
    const applied = await api.admin('POST', '/faults/presets/maintenance', { path: '/v4/vpcs*' })
    assert.equal(applied.status, 200, JSON.stringify(applied.body))
    assert.equal(applied.body.data[0].path, '/v4/vpcs*')
    const vpcs = await api.request({ method: 'GET', url: '/v4/vpcs/1', headers: bootstrapHeaders })
    assert.equal(vpcs.status, 503)
    assert.equal(vpcs.headers['x-maintenance-mode'], 'true')
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 200)
    await api.admin('DELETE', '/faults')
  })

  it('the maintenance preset answers every API request with 503 until cleared', async () => {
    const applied = await api.admin('POST', '/faults/presets/maintenance')
    assert.equal(applied.status, 200, JSON.stringify(applied.body))
    for (const url of ['/v4/regions', '/v4/vpcs', '/v4/profile']) {
      const res = await api.request({ method: 'GET', url, headers: bootstrapHeaders })
      assert.equal(res.status, 503, url)
      assert.equal(res.headers['x-maintenance-mode'], 'true')
    }
    // The controls answer however their path is spelled, so a test can always clear its faults.
    const escaped = await api.request({ method: 'GET', url: '/%5Fcloudplane/faults', headers: adminHeaders })
    assert.equal(escaped.status, 200, JSON.stringify(escaped.body))
    await api.admin('DELETE', '/faults')
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 200)
  })

  it('the offline preset and a drop rule close the connection without an answer', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
    await api.admin('POST', '/faults/presets/offline', {})
    await assert.rejects(fetch(`${base}/v4/regions`))
    // The control API still answers, so a test can bring the API back.
    const cleared = await fetch(`${base}/_cloudplane/faults`, {
      method: 'DELETE',
      headers: { 'x-cloudplane-admin-key': 'test-admin-key-0123456789abcdef' },
    })
    assert.equal(cleared.status, 200)
    assert.equal((await fetch(`${base}/v4/regions`)).status, 200)

    await api.admin('POST', '/faults', { method: 'DELETE', drop: true, times: 1 })
    await assert.rejects(fetch(`${base}/v4/vpcs/999999`, { method: 'DELETE', headers: bootstrapHeaders }))
    assert.equal(
      (await fetch(`${base}/v4/vpcs/999999`, { method: 'DELETE', headers: bootstrapHeaders })).status,
      404,
    )
    await api.admin('DELETE', '/faults')
  })

  it('refuses a rule with no effect or two, and an unknown user', async () => {
    const none = await api.admin('POST', '/faults', { path: '/v4/vpcs' })
    assert.equal(none.status, 400)
    const two = await api.admin('POST', '/faults', { status: 500, drop: true })
    assert.equal(two.status, 400)
    const unknown = await api.admin('POST', '/faults', { username: 'nobody-here', status: 500 })
    assert.equal(unknown.status, 400)
    assert.equal(unknown.body.errors[0].field, 'username')
    assert.equal((await api.admin('GET', '/faults')).body.data.length, 0)
  })

  it('refuses a count or a token id past what the rules can store, naming the field', async () => {
    for (const [field, value] of [
      ['times', 2_147_483_648],
      ['token_id', 1e20],
    ] as const) {
      const refused = await api.admin('POST', '/faults', { path: '/v4/regions', status: 500, [field]: value })
      assert.equal(refused.status, 400, JSON.stringify(refused.body))
      assert.equal(refused.body.errors[0].field, field)
    }
    const largest = await api.admin('POST', '/faults', {
      path: '/v4/nowhere',
      status: 500,
      times: 2_147_483_647,
    })
    assert.equal(largest.status, 200)
    assert.equal((await api.admin('GET', '/faults')).body.data.length, 1)
  })
})
