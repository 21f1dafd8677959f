import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../../helpers/app.ts'
import { bearer } from '../../../helpers/factories.ts'

describe('compute types', () => {
  const api = useTestApp()

  it('lists the type catalogue without a token, in the real key order', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/compute/types' })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 28)
    const [nanode] = res.body.data
    assert.deepEqual(Object.keys(nanode), [
      'id',
      'label',
      'price',
      'region_prices',
      'addons',
      'memory',
      'disk',
      'transfer',
      'vcpus',
      'gpus',
      'network_out',
      'class',
      'successor',
    ])
    assert.deepEqual(nanode, {
      id: 'g6-nanode-1',
      label: 'Nanode 1GB',
      price: { hourly: 0.0075, monthly: 5 },
      region_prices: [
        { id: 'id-cgk', hourly: 0.009, monthly: 6 },
        { id: 'br-gru', hourly: 0.0105, monthly: 7 },
      ],
      addons: {
        backups: {
          price: { hourly: 0.003, monthly: 2 },
          region_prices: [
            { id: 'id-cgk', hourly: 0.0036, monthly: 2.4 },
            { id: 'br-gru', hourly: 0.0042, monthly: 2.8 },
          ],
        },
      },
      memory: 1024,
      disk: 25600,
      transfer: 1000,
      vcpus: 1,
      gpus: 0,
      network_out: 1000,
      class: 'nanode',
      successor: null,
    })
  })

  it('filters on class, memory, vcpus and more', async () => {
    const gpu = await api.request({
      method: 'GET',
      url: '/v4/compute/types',
      headers: { 'x-filter': '{"class":"gpu"}' },
    })
    assert.equal(gpu.body.results, 4)
    const big = await api.request({
      method: 'GET',
      url: '/v4/compute/types',
      headers: { 'x-filter': '{"memory":{"+gte":262144},"+order_by":"memory","+order":"desc"}' },
    })
    assert.deepEqual(
      big.body.data.map((x: { id: string }) => x.id),
      ['g6-dedicated-64', 'g7-highmem-16', 'g6-dedicated-56'],
    )
    const bad = await api.request({
      method: 'GET',
      url: '/v4/compute/types',
      headers: { 'x-filter': '{"price":1}' },
    })
    assert.equal(bad.status, 400)
  })

  it('views one type; an unknown one is 404; a bad token is still refused', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/compute/types/g6-standard-2' })
    assert.equal(res.body.memory, 4096)
    const missing = await api.request({ method: 'GET', url: '/v4/compute/types/g6-nothing' })
    assert.equal(missing.status, 404)
    const badToken = await api.request({
      method: 'GET',
      url: '/v4/compute/types',
      headers: bearer('f'.repeat(64)),
    })
    assert.equal(badToken.status, 401)
  })
})
