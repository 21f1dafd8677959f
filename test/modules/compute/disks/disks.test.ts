import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { findAccountDisk } from '../../../../src/modules/compute/disks/disks.repository.ts'
import { createInstance } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount } from '../../../helpers/factories.ts'

describe('disks', () => {
  const api = useTestApp()

  it('lists and views an instance’s disks in the recorded key order', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner, { type: 'g6-standard-1', swap_size: 1024 })
    const list = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/disks`,
      headers: owner.headers,
    })
    assert.equal(list.status, 200)
    assert.equal(list.body.results, 2)
    const [root, swap] = list.body.data
    assert.deepEqual(Object.keys(root), ['id', 'status', 'label', 'created', 'updated', 'filesystem', 'size'])
    assert.equal(root.size, 51200 - 1024)
    assert.equal(swap.label, '1024 MB Swap Image')
    const view = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/disks/${swap.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(view.body, swap)
    const noSwap = await createInstance(api, owner, { swap_size: 0 })
    const single = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${noSwap.id}/disks`,
      headers: owner.headers,
    })
    assert.deepEqual(
      single.body.data.map((d: { size: number }) => d.size),
      [25600],
    )
  })

  it('filters disks on label and size, and nothing else', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const url = `/v4/compute/instances/${instance.id}/disks`
    const bySize = await api.request({
      method: 'GET',
      url,
      headers: { ...owner.headers, 'x-filter': '{"size":{"+lt":1000}}' },
    })
    assert.deepEqual(
      bySize.body.data.map((d: { filesystem: string }) => d.filesystem),
      ['swap'],
    )
    const byLabel = await api.request({
      method: 'GET',
      url,
      headers: { ...owner.headers, 'x-filter': '{"label":"Debian 12 Disk"}' },
    })
    assert.equal(byLabel.body.results, 1)
    const bad = await api.request({
      method: 'GET',
      url,
      headers: { ...owner.headers, 'x-filter': '{"filesystem":"swap"}' },
    })
    assert.deepEqual(bad.body, { errors: [{ reason: 'Cannot filter on filesystem', field: 'X-Filter' }] })
    const other = await createInstance(api, owner)
    const otherDisks = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${other.id}/disks`,
      headers: owner.headers,
    })
    const wrong = await api.request({
      method: 'GET',
      url: `${url}/${otherDisks.body.data[0].id}`,
      headers: owner.headers,
    })
    assert.equal(wrong.status, 404)
  })

  it('findAccountDisk gives image capture the disk with its instance, within the account only', async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const instance = await createInstance(api, owner, { label: 'source' })
    const list = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/disks`,
      headers: owner.headers,
    })
    const disk = list.body.data[0]
    const found = await findAccountDisk(api.db, owner.accountId, disk.id)
    assert.ok(found)
    assert.equal(found.id, disk.id)
    assert.equal(found.instance_id, instance.id)
    assert.equal(found.instance_label, 'source')
    assert.equal(found.account_id, owner.accountId)
    assert.equal(found.filesystem, 'ext4')
    assert.equal(found.size, disk.size)
    assert.equal(await findAccountDisk(api.db, stranger.accountId, disk.id), undefined)
    assert.equal(await findAccountDisk(api.db, owner.accountId, 999999), undefined)
  })
})
