import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { type ControlApp, useControlApp } from './control-app.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp
const UNAVAILABLE = { errors: [{ reason: 'Region us-iad is currently unavailable', field: 'region' }] }

describe('a region in an outage', () => {
  const api = useControlApp()
  const post = (owner: TestUser, url: string, payload: object) =>
    api.request({ method: 'POST', url, headers: owner.headers, payload })

  const creates: Array<[string, object]> = [
    ['/v4/vpcs', { label: 'outage-vpc', region: 'us-iad' }],
    ['/v4/compute/instances', { type: 'g6-nanode-1', region: 'us-iad', label: 'outage-compute' }],
    ['/v4/volumes', { label: 'outage-volume', region: 'us-iad', size: 20 }],
    ['/v4/loadbalancers', { label: 'outage-lb', region: 'us-iad' }],
    ['/v4/images/upload', { label: 'outage-image', region: 'us-iad' }],
  ]

  it('refuses every create there with a 400 on region, and takes them again once it is ok', async () => {
    const owner = await createAccount(asTestApp(api))
    const marked = await api.admin('PUT', '/regions/us-iad/status', { status: 'outage' })
    assert.equal(marked.status, 200, JSON.stringify(marked.body))
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions/us-iad' })).body.status, 'outage')
    for (const [url, payload] of creates) {
      const refused = await post(owner, url, payload)
      assert.equal(refused.status, 400, url)
      assert.deepEqual(refused.body, UNAVAILABLE, url)
    }
    // Other regions go on as before.
    assert.equal((await post(owner, '/v4/vpcs', { label: 'elsewhere', region: 'us-ord' })).status, 200)

    await api.admin('PUT', '/regions/us-iad/status', { status: 'ok' })
    for (const [url, payload] of creates) {
      const res = await post(owner, url, payload)
      assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`)
    }
  })

  it('refuses an image capture from a disk of an instance there', async () => {
    const owner = await createAccount(asTestApp(api))
    const instance = await post(owner, '/v4/compute/instances', {
      type: 'g6-standard-1',
      region: 'us-iad',
      image: 'compute/debian12',
      root_pass: 'Correct-Horse-9',
    })
    assert.equal(instance.status, 200, JSON.stringify(instance.body))
    const disks = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.body.id}/disks`,
      headers: owner.headers,
    })
    const disk = disks.body.data.find((d: { filesystem: string }) => d.filesystem === 'ext4')
    await api.admin('PUT', '/regions/us-iad/status', { status: 'outage' })
    const refused = await post(owner, '/v4/images', { disk_id: disk.id })
    await api.admin('PUT', '/regions/us-iad/status', { status: 'ok' })
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [{ reason: 'Region us-iad is currently unavailable', field: 'disk_id' }],
    })
  })

  it('an unknown region cannot be marked', async () => {
    const res = await api.admin('PUT', '/regions/xx-nowhere/status', { status: 'outage' })
    assert.equal(res.status, 400)
  })
})
