import assert from 'node:assert/strict'
import { beforeEach, describe, it } from 'node:test'
import type { TestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'
import { type ControlApp, useControlApp } from '../../control/control-app.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp

/**
 * Deleting a config profile while the instance's work takes time: the profile a create will boot,
 * and one whose interfaces stay active until a reboot into another profile ends, are kept.
 */
describe('config profile delete during timed work', () => {
  const api = useControlApp()
  beforeEach(async () => {
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })
  const advance = async (by: string) =>
    assert.equal((await api.admin('POST', '/clock/advance', { by })).status, 200)
  const call = (owner: TestUser, method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    api.request({ method, url, headers: owner.headers, ...(payload !== undefined && { payload }) })
  const createInstance = (owner: TestUser, extra: object = {}) =>
    call(owner, 'POST', '/v4/compute/instances', {
      type: 'g6-standard-1',
      region: 'us-ord',
      image: 'compute/debian12',
      root_pass: 'Correct-Horse-9',
      ...extra,
    })

  it('keeps a profile with active interfaces while the instance reboots into another one', async () => {
    const owner = await createAccount(asTestApp(api))
    const vpc = await call(owner, 'POST', '/v4/vpcs', {
      label: 'reboot-away',
      region: 'us-ord',
      subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }],
    })
    const created = await createInstance(owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.body.subnets[0].id }],
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const id = created.body.id as number
    const first = (await call(owner, 'GET', `/v4/compute/instances/${id}/configs`)).body.data[0]
    const second = await call(owner, 'POST', `/v4/compute/instances/${id}/configs`, {
      label: 'second',
      devices: {},
    })
    assert.equal(second.status, 200, JSON.stringify(second.body))
    await api.admin('PUT', '/work-durations', { compute_reboot: 30 })
    const reboot = await call(owner, 'POST', `/v4/compute/instances/${id}/reboot`, {
      config_id: second.body.id,
    })
    assert.equal(reboot.status, 200, JSON.stringify(reboot.body))

    const refused = await call(owner, 'DELETE', `/v4/compute/instances/${id}/configs/${first.id}`)
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [
        {
          reason:
            'A config profile with active interfaces cannot be deleted; wait for the Compute to finish or shut it down first',
        },
      ],
    })
    const iface = await call(
      owner,
      'GET',
      `/v4/compute/instances/${id}/configs/${first.id}/interfaces/${first.interfaces[0].id}`,
    )
    assert.equal(iface.body.active, true)

    // Once the reboot is over, the first profile's interfaces are inactive and it can go.
    await advance('35s')
    assert.equal((await call(owner, 'GET', `/v4/compute/instances/${id}`)).body.status, 'running')
    assert.equal((await call(owner, 'DELETE', `/v4/compute/instances/${id}/configs/${first.id}`)).status, 200)
  })

  it('keeps the profile a provisioning instance will boot, which then runs from it', async () => {
    await api.admin('PUT', '/work-durations', { compute_create: 30, compute_boot: 10 })
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    assert.equal(created.body.status, 'provisioning')
    const id = created.body.id as number
    const config = (await call(owner, 'GET', `/v4/compute/instances/${id}/configs`)).body.data[0]

    const refused = await call(owner, 'DELETE', `/v4/compute/instances/${id}/configs/${config.id}`)
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [
        {
          reason:
            'A config profile cannot be deleted while its Compute is provisioning; wait for it to finish',
        },
      ],
    })
    await advance('31s')
    await advance('15s')
    assert.equal((await call(owner, 'GET', `/v4/compute/instances/${id}`)).body.status, 'running')
    const configs = await call(owner, 'GET', `/v4/compute/instances/${id}/configs`)
    assert.deepEqual(
      configs.body.data.map((c: { id: number }) => c.id),
      [config.id],
    )
  })
})
