import assert from 'node:assert/strict'
import { beforeEach, describe, it } from 'node:test'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { type ControlApp, useControlApp } from '../control/control-app.ts'
import { createInstance, rootDisk } from './image-helpers.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp

/**
 * A capture is a disk operation: it waits for the instance's other work, as on the real service
 * (a disk operation while another job runs is `busy`, a 400). Captures of different instances
 * run side by side.
 */
describe('image capture while the instance is busy', () => {
  const api = useControlApp()
  beforeEach(async () => {
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  const advance = async (by: string) =>
    assert.equal((await api.admin('POST', '/clock/advance', { by })).status, 200)

  const deployed = async (owner: TestUser) => {
    const instance = await createInstance(asTestApp(api), owner)
    return { id: instance.id, diskId: rootDisk(instance).id, status: instance.status }
  }

  const capture = (owner: TestUser, diskId: number, label: string) =>
    api.request({
      method: 'POST',
      url: '/v4/images',
      headers: owner.headers,
      payload: { disk_id: diskId, label },
    })

  it('refuses a second capture of an instance while its first runs, and takes one once it is done', async () => {
    const owner = await createAccount(asTestApp(api))
    const instance = await deployed(owner)
    const other = await deployed(owner)
    await api.admin('PUT', '/work-durations', { image_capture: 90 })
    const first = await capture(owner, instance.diskId, 'first')
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.equal(first.body.status, 'creating')

    const second = await capture(owner, instance.diskId, 'second')
    assert.equal(second.status, 400)
    assert.deepEqual(second.body, {
      errors: [{ reason: 'This Compute is busy (an image is being captured); wait for it to finish' }],
    })
    // Another instance's disk is not held up.
    assert.equal((await capture(owner, other.diskId, 'elsewhere')).status, 200)

    await advance('95s')
    const done = await api.request({
      method: 'GET',
      url: `/v4/images/${first.body.id}`,
      headers: owner.headers,
    })
    assert.equal(done.body.status, 'available')
    assert.equal((await capture(owner, instance.diskId, 'again')).status, 200)
    const images = await api.request({
      method: 'GET',
      url: '/v4/images',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ is_public: false }) },
    })
    assert.deepEqual(images.body.data.map((i: { label: string }) => i.label).sort(), [
      'again',
      'elsewhere',
      'first',
    ])
  })

  it('takes captures of one instance in a row while work is instant (the default)', async () => {
    const owner = await createAccount(asTestApp(api))
    const instance = await deployed(owner)
    // No job runs in between: with instant work nothing is under way as far as a client can tell.
    for (const label of ['one', 'two', 'three']) {
      const taken = await capture(owner, instance.diskId, label)
      assert.equal(taken.status, 200, JSON.stringify(taken.body))
    }
  })

  it('refuses a capture while the instance is provisioning or booting, and takes it once it runs', async () => {
    await api.admin('PUT', '/work-durations', { compute_create: 30, compute_boot: 20 })
    const owner = await createAccount(asTestApp(api))
    const instance = await deployed(owner)
    assert.equal(instance.status, 'provisioning')
    const refused = await capture(owner, instance.diskId, 'early')
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [{ reason: 'This Compute is busy (provisioning); wait for it to finish' }],
    })
    await advance('35s')
    assert.deepEqual((await capture(owner, instance.diskId, 'booting')).body, {
      errors: [{ reason: 'This Compute is busy (booting); wait for it to finish' }],
    })
    await advance('25s')
    assert.equal((await capture(owner, instance.diskId, 'running')).status, 200)
  })
})
