import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { createLoadBalancer } from './loadbalancer-fixtures.ts'

describe('load balancers: refusals', () => {
  const api = useTestApp()

  const create = async (headers: Record<string, string>, payload: object) =>
    api.request({ method: 'POST', url: '/v4/loadbalancers', headers, payload })
  const fields = (body: { errors: Array<{ field?: string }> }) => body.errors.map((e) => e.field)

  it('refuses labels outside 3-32 letters, digits, dashes and underscores', async () => {
    const owner = await createAccount(api)
    for (const label of ['ab', 'x'.repeat(33), 'has space', 'dot.ted', 'ünï']) {
      const res = await create(owner.headers, { region: 'us-iad', label })
      assert.equal(res.status, 400, label)
      assert.deepEqual(fields(res.body), ['label'], label)
    }
    assert.equal(
      (await create(owner.headers, { region: 'us-iad', label: `a_-${'x'.repeat(29)}` })).status,
      200,
    )
  })

  it('refuses a label the account already uses, on create and update', async () => {
    const owner = await createAccount(api)
    await createLoadBalancer(api, owner, { label: 'taken' })
    const res = await create(owner.headers, { region: 'us-ord', label: 'taken' })
    assert.deepEqual(res.body, {
      errors: [{ reason: 'Label must be unique among your load balancers', field: 'label' }],
    })
    const other = await createLoadBalancer(api, owner)
    const update = await api.request({
      method: 'PUT',
      url: `/v4/loadbalancers/${other.id}`,
      headers: owner.headers,
      payload: { label: 'taken' },
    })
    assert.equal(update.status, 400)
    assert.deepEqual(fields(update.body), ['label'])
    const stranger = await createAccount(api)
    assert.equal((await create(stranger.headers, { region: 'us-iad', label: 'taken' })).status, 200)
  })

  it('refuses a throttle outside 0-20, on create and update', async () => {
    const owner = await createAccount(api)
    for (const value of [-1, 21, 1.5]) {
      const res = await create(owner.headers, { region: 'us-iad', client_conn_throttle: value })
      assert.equal(res.status, 400, String(value))
      assert.deepEqual(fields(res.body), ['client_conn_throttle'])
    }
    const lb = await createLoadBalancer(api, owner)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/loadbalancers/${lb.id}`,
      headers: owner.headers,
      payload: { client_conn_throttle: 21 },
    })
    assert.deepEqual(fields(res.body), ['client_conn_throttle'])
  })

  it('refuses a missing or unknown region, and one without the capability', async () => {
    const owner = await createAccount(api)
    assert.deepEqual(fields((await create(owner.headers, {})).body), ['region'])
    const unknown = await create(owner.headers, { region: 'mars-1' })
    assert.deepEqual(unknown.body, { errors: [{ reason: 'Region not found', field: 'region' }] })
    const region = await api.db
      .selectFrom('regions')
      .select('capabilities')
      .where('id', '=', 'ap-west')
      .executeTakeFirstOrThrow()
    const without = (JSON.parse(region.capabilities) as string[]).filter((c) => c !== 'NodeBalancers')
    await api.db
      .updateTable('regions')
      .set({ capabilities: JSON.stringify(without) })
      .where('id', '=', 'ap-west')
      .execute()
    const res = await create(owner.headers, { region: 'ap-west' })
    assert.deepEqual(res.body, {
      errors: [{ reason: 'Region does not support NodeBalancers', field: 'region' }],
    })
  })

  it('refuses tags outside 3-50 characters', async () => {
    const owner = await createAccount(api)
    const res = await create(owner.headers, { region: 'us-iad', tags: ['ok-tag', 'no'] })
    assert.equal(res.status, 400)
    assert.deepEqual(fields(res.body), ['tags[1]'])
  })

  it('answers 404 for an unknown id', async () => {
    const owner = await createAccount(api)
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await api.request({
        method,
        url: '/v4/loadbalancers/999999',
        headers: owner.headers,
        ...(method === 'PUT' && { payload: { label: 'abc' } }),
      })
      assert.equal(res.status, 404, method)
    }
  })
})
