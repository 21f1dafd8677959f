import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { nowTimestamp } from '../../../src/common/time.ts'
import { insertDisk } from '../../../src/modules/compute/disks/disks.repository.ts'
import { useTestApp } from '../../helpers/app.ts'
import {
  createAccount,
  createUser,
  grantEntity,
  grantGlobal,
  type TestUser,
} from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { createInstance, type Disk, rootDisk } from './image-helpers.ts'

describe('image capture from a disk', () => {
  const api = useTestApp()

  const capture = (owner: TestUser, payload: Record<string, unknown>) =>
    api.request({ method: 'POST', url: '/v4/images', headers: owner.headers, payload })

  it('returns the image creating at once; a job makes it available and finishes the disk_imagize event', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const disk = rootDisk(instance)
    const res = await capture(owner, { disk_id: disk.id, cloud_init: true })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'images:read_write,computes:read_only')
    const image = res.body
    assert.match(image.id, /^private\/\d+$/)
    assert.equal(image.status, 'creating')
    assert.equal(image.label, disk.label, 'the label defaults to the disk’s')
    assert.equal(image.description, '')
    assert.equal(image.size, disk.size)
    assert.equal(image.created_by, owner.user.username)
    assert.equal(image.type, 'manual')
    assert.equal(image.is_public, false)
    assert.deepEqual(image.capabilities, ['cloud-init'])

    const listed = await api.request({
      method: 'GET',
      url: '/v4/images',
      headers: { ...owner.headers, 'x-filter': '{"is_public":false}' },
    })
    assert.deepEqual(
      listed.body.data.map((i: { id: string; status: string }) => [i.id, i.status]),
      [[image.id, 'creating']],
    )

    const eventsFilter = { ...owner.headers, 'x-filter': '{"action":"disk_imagize"}' }
    let events = await api.request({ method: 'GET', url: '/v4/account/events', headers: eventsFilter })
    assert.equal(events.body.results, 1)
    let [event] = events.body.data
    assert.equal(event.status, 'started')
    assert.deepEqual(event.entity, {
      label: instance.label,
      id: instance.id,
      type: 'compute',
      url: `/v4/compute/instances/${instance.id}`,
    })
    assert.deepEqual(event.secondary_entity, {
      id: image.id,
      type: 'image',
      label: disk.label,
      url: `/v4/images/${image.id}`,
    })

    api.clock.advance(3000)
    assert.ok((await api.app.jobs.runPendingJobs()) >= 1)
    const done = await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: owner.headers })
    assert.equal(done.body.status, 'available')
    assert.equal(done.body.size, disk.size)
    events = await api.request({ method: 'GET', url: '/v4/account/events', headers: eventsFilter })
    ;[event] = events.body.data
    assert.equal(event.status, 'finished')
    assert.equal(event.percent_complete, 100)
    assert.ok(event.duration >= 3)

    const deploy = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: { type: 'g6-standard-1', region: 'us-ord', image: image.id, root_pass: 'Correct-Horse-9' },
    })
    assert.equal(deploy.status, 200, `a captured image deploys: ${JSON.stringify(deploy.body)}`)
  })

  it('takes a label and description, and captures ext3 disks too', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const ext3 = await insertDisk(api.db, {
      instance_id: instance.id,
      label: 'Data',
      status: 'ready',
      size: 2048,
      filesystem: 'ext3',
      created: nowTimestamp(api.clock),
      updated: nowTimestamp(api.clock),
    })
    const res = await capture(owner, { disk_id: ext3.id, label: 'golden data', description: 'Data disk' })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'golden data')
    assert.equal(res.body.description, 'Data disk')
    assert.equal(res.body.size, 2048)
    assert.deepEqual(res.body.capabilities, [])
  })

  it('refuses disks that are not ext3/ext4, unknown or another account’s, and bad bodies', async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const instance = await createInstance(api, owner)
    const theirs = await createInstance(api, stranger)
    const swap = instance.disks.find((d) => d.filesystem === 'swap') as Disk
    const cases: Array<[Record<string, unknown>, Array<{ field: string; reason: string }>]> = [
      [
        { disk_id: swap.id },
        [{ field: 'disk_id', reason: 'Only ext3 and ext4 disks can be captured as images' }],
      ],
      [{ disk_id: 999999999 }, [{ field: 'disk_id', reason: 'Disk not found' }]],
      [{ disk_id: rootDisk(theirs).id }, [{ field: 'disk_id', reason: 'Disk not found' }]],
    ]
    for (const [payload, errors] of cases) {
      const res = await capture(owner, payload)
      assert.equal(res.status, 400, JSON.stringify(payload))
      assert.deepEqual(
        res.body.errors.map((e: { field: string; reason: string }) => ({ field: e.field, reason: e.reason })),
        errors,
      )
    }
    const invalid = await capture(owner, {
      disk_id: 'one',
      label: 'x'.repeat(51),
      cloud_init: 1,
      description: '',
    })
    assert.equal(invalid.status, 400)
    assert.deepEqual(invalid.body.errors.map((e: { field: string }) => e.field).sort(), [
      'cloud_init',
      'description',
      'disk_id',
      'label',
    ])
    const missing = await capture(owner, {})
    assert.deepEqual(missing.body, { errors: [{ field: 'disk_id', reason: 'disk_id is required' }] })
    const listed = await api.request({
      method: 'GET',
      url: '/v4/images',
      headers: { ...owner.headers, 'x-filter': '{"is_public":false}' },
    })
    assert.equal(listed.body.results, 0, 'no image was left behind')
  })

  it('a restricted user needs add_images and read_write on the instance', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const instance = await createInstance(api, owner)
    const body = { disk_id: rootDisk(instance).id }
    assert.equal((await capture(member, body)).status, 403)
    await grantGlobal(api, member, 'add_images')
    assert.equal((await capture(member, body)).status, 403, 'no grant on the instance')
    await grantEntity(api, member, 'compute', instance.id, 'read_only')
    const readOnly = await capture(member, body)
    assert.equal(readOnly.status, 403)
    assert.deepEqual(readOnly.body, { errors: [{ reason: 'Unauthorized' }] })
    await grantEntity(api, member, 'compute', instance.id, 'read_write')
    const res = await capture(member, body)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const rename = await api.request({
      method: 'PUT',
      url: `/v4/images/${res.body.id}`,
      headers: member.headers,
      payload: { label: 'mine' },
    })
    assert.equal(rename.status, 200, 'the creator holds read_write on the new image')
  })

  it('an image deleted while creating ends its disk_imagize event as failed', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const res = await capture(owner, { disk_id: rootDisk(instance).id })
    const del = await api.request({
      method: 'DELETE',
      url: `/v4/images/${res.body.id}`,
      headers: owner.headers,
    })
    assert.equal(del.status, 200)
    await api.app.jobs.runPendingJobs()
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': '{"action":"disk_imagize"}' },
    })
    assert.equal(events.body.data[0].status, 'failed')
  })

  securitySuite(api, [
    {
      method: 'POST',
      route: '/v4/images (capture)',
      scopes: ['images:read_write', 'computes:read_only'],
      success: 200,
      restricted: 403,
      prepare: async (app, owner) => ({
        url: '/v4/images',
        payload: { disk_id: rootDisk(await createInstance(app, owner)).id },
      }),
    },
  ])
})
