import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, firstConfig } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../../helpers/factories.ts'
import { testVocabulary, wirePath } from '../../helpers/naming.ts'
import { activeVolume, createVolume } from './volume-fixtures.ts'

describe('volumes', () => {
  const api = useTestApp()
  const get = (owner: TestUser, url: string, filter?: object) =>
    api.request({
      method: 'GET',
      url,
      headers: { ...owner.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })
  const post = (owner: TestUser, url: string, payload: object = {}) =>
    api.request({ method: 'POST', url, headers: owner.headers, payload })
  const events = async (owner: TestUser, action: string) =>
    (await get(owner, '/v4/account/events', { action })).body.data

  it('creates a volume that becomes active through the job runner', async () => {
    const owner = await createAccount(api)
    const res = await post(owner, '/v4/volumes', { label: 'my-volume', region: 'us-iad', tags: ['database'] })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const volume = res.body
    assert.deepEqual(Object.keys(volume), [
      'id',
      'label',
      'status',
      'size',
      'region',
      'linode_id',
      'linode_label',
      'created',
      'updated',
      'filesystem_path',
      'tags',
      'hardware_type',
      'encryption',
    ])
    assert.equal(volume.status, 'creating')
    assert.equal(volume.size, 20, 'the size defaults to 20 GB')
    assert.equal(volume.linode_id, null)
    assert.equal(volume.filesystem_path, '/dev/disk/by-id/scsi-0Linode_Volume_my-volume')
    assert.deepEqual(volume.tags, ['database'])
    assert.equal(volume.hardware_type, 'nvme')
    let [event] = await events(owner, 'volume_create')
    assert.equal(event.status, 'started')
    assert.deepEqual(event.entity, {
      label: 'my-volume',
      id: volume.id,
      type: 'volume',
      url: `/v4/volumes/${volume.id}`,
    })

    api.clock.advance(2000)
    assert.ok((await api.app.jobs.runPendingJobs()) >= 1)
    assert.equal((await get(owner, `/v4/volumes/${volume.id}`)).body.status, 'active')
    ;[event] = await events(owner, 'volume_create')
    assert.equal(event.status, 'finished')
    assert.equal(event.percent_complete, 100)
    assert.ok(event.duration >= 2)
  })

  it('creates a volume attached to an instance, in its region', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner, { region: 'us-ord' })
    const volume = await createVolume(api, owner, { region: undefined, linode_id: instance.id, size: 40 })
    assert.equal(volume.region, 'us-ord')
    assert.equal(volume.size, 40)
    assert.equal(volume.linode_id, instance.id)
    assert.equal(volume.linode_label, instance.label)
  })

  it('attaches to an instance and its config profile, then detaches', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const config = await firstConfig(api, owner, instance.id)
    const volume = await activeVolume(api, owner)
    const attached = await post(owner, `/v4/volumes/${volume.id}/attach`, {
      linode_id: instance.id,
      config_id: config.id,
    })
    assert.equal(attached.status, 200, JSON.stringify(attached.body))
    assert.equal(attached.body.linode_id, instance.id)
    assert.equal(attached.body.linode_label, instance.label)
    const listed = await get(owner, '/v4/volumes', { linode_id: instance.id })
    assert.deepEqual(
      listed.body.data.map((v: { id: number }) => v.id),
      [volume.id],
    )
    const [attach] = await events(owner, 'volume_attach')
    assert.equal(attach.status, 'finished')
    assert.deepEqual(attach.secondary_entity, {
      id: instance.id,
      type: testVocabulary().toWire('entityType', 'compute'),
      label: instance.label,
      url: testVocabulary().toWire('apiUrl', `/v4/compute/instances/${instance.id}`),
    })

    const detached = await post(owner, `/v4/volumes/${volume.id}/detach`)
    assert.equal(detached.status, 200, JSON.stringify(detached.body))
    assert.deepEqual(detached.body, {})
    const after = (await get(owner, `/v4/volumes/${volume.id}`)).body
    assert.equal(after.linode_id, null)
    assert.equal(after.linode_label, null)
    assert.equal((await events(owner, 'volume_detach')).length, 1)
  })

  it('leaves a volume detached when its instance is deleted', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const volume = await createVolume(api, owner, { linode_id: instance.id })
    const gone = await api.request({
      method: 'DELETE',
      url: wirePath(`/v4/compute/instances/${instance.id}`),
      headers: owner.headers,
    })
    assert.equal(gone.status, 200, JSON.stringify(gone.body))
    assert.equal((await get(owner, `/v4/volumes/${volume.id}`)).body.linode_id, null)
  })

  it('grows a volume through resizing back to active', async () => {
    const owner = await createAccount(api)
    const volume = await activeVolume(api, owner)
    const res = await post(owner, `/v4/volumes/${volume.id}/resize`, { size: 30 })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.size, 30)
    assert.equal(res.body.status, 'resizing')
    assert.equal((await events(owner, 'volume_resize'))[0].status, 'started')
    await api.app.jobs.runPendingJobs()
    assert.equal((await get(owner, `/v4/volumes/${volume.id}`)).body.status, 'active')
    assert.equal((await events(owner, 'volume_resize'))[0].status, 'finished')
  })

  it('changes the label and tags, then deletes', async () => {
    const owner = await createAccount(api)
    const volume = await activeVolume(api, owner)
    const url = `/v4/volumes/${volume.id}`
    const res = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { label: 'renamed', tags: ['a-tag'] },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'renamed')
    assert.equal(res.body.filesystem_path, '/dev/disk/by-id/scsi-0Linode_Volume_renamed')
    assert.deepEqual(res.body.tags, ['a-tag'])
    assert.equal((await events(owner, 'volume_update'))[0].entity.label, 'renamed')
    const deleted = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(deleted.status, 200)
    assert.equal((await get(owner, url)).status, 404)
    assert.equal((await events(owner, 'volume_delete'))[0].entity.id, volume.id)
  })

  it('filters and pages the list', async () => {
    const owner = await createAccount(api)
    await createVolume(api, owner, { label: 'alpha', size: 10 })
    await createVolume(api, owner, { label: 'beta', size: 50, region: 'us-ord' })
    await createVolume(api, owner, { label: 'gamma', size: 100 })
    const bySize = await get(owner, '/v4/volumes', {
      size: { '+gte': 50 },
      '+order_by': 'size',
      '+order': 'desc',
    })
    assert.deepEqual(
      bySize.body.data.map((v: { label: string }) => v.label),
      ['gamma', 'beta'],
    )
    const byRegion = await get(owner, '/v4/volumes', { region: 'us-ord' })
    assert.deepEqual(
      byRegion.body.data.map((v: { label: string }) => v.label),
      ['beta'],
    )
    const page2 = await get(owner, '/v4/volumes?page=2&page_size=25')
    assert.deepEqual([page2.body.page, page2.body.pages, page2.body.results], [1, 1, 3])
    const bad = await get(owner, '/v4/volumes', { nope: 1 })
    assert.equal(bad.status, 400)
    const other = await createAccount(api)
    assert.equal((await get(other, '/v4/volumes')).body.results, 0)
  })

  it('pages a long list by id', async () => {
    const owner = await createAccount(api)
    const made = []
    for (let i = 0; i < 27; i++) made.push((await createVolume(api, owner)).id)
    const first = await get(owner, '/v4/volumes?page=1&page_size=25')
    assert.deepEqual([first.body.page, first.body.pages, first.body.results], [1, 2, 27])
    const second = await get(owner, '/v4/volumes?page=2&page_size=25')
    assert.deepEqual(
      [...first.body.data, ...second.body.data].map((v: { id: number }) => v.id),
      made,
    )
  })

  it('shows a restricted user only the volumes granted, in the grants document too', async () => {
    const owner = await createAccount(api)
    const seen = await createVolume(api, owner)
    await createVolume(api, owner)
    const member = await createUser(api, owner)
    await grantEntity(api, member, 'volume', seen.id, 'read_write')
    assert.deepEqual(
      (await get(member, '/v4/volumes')).body.data.map((v: { id: number }) => v.id),
      [seen.id],
    )
    const grants = await get(owner, `/v4/account/users/${member.user.username}/grants`)
    const volumes = grants.body.volume as Array<{ id: number; label: string; permissions: string | null }>
    assert.equal(volumes.length, 2)
    assert.deepEqual(
      volumes.find((v) => v.id === seen.id),
      { id: seen.id, label: seen.label, permissions: 'read_write' },
    )
    const denied = await post(member, '/v4/volumes', { label: 'nope', region: 'us-iad' })
    assert.equal(denied.status, 403, 'creating needs add_volumes')
  })
})
