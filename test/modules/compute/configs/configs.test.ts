import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, firstConfig, power } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { defined } from '../../../helpers/defined.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'

const CONFIG_KEYS = [
  'id',
  'label',
  'helpers',
  'kernel',
  'comments',
  'memory_limit',
  'created',
  'updated',
  'root_device',
  'devices',
  'initrd',
  'run_level',
  'virt_mode',
  'interfaces',
]

describe('config profiles', () => {
  const api = useTestApp()

  const disksOf = async (owner: TestUser, id: number) =>
    (await api.request({ method: 'GET', url: `/v4/compute/instances/${id}/disks`, headers: owner.headers }))
      .body.data

  it('creates a profile with the recorded defaults and key order', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const res = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: { label: 'go-test-conf', devices: {}, interfaces: null },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(Object.keys(res.body), CONFIG_KEYS)
    assert.deepEqual(res.body, {
      id: res.body.id,
      label: 'go-test-conf',
      helpers: {
        updatedb_disabled: true,
        distro: true,
        modules_dep: true,
        network: true,
        devtmpfs_automount: true,
      },
      kernel: 'compute/latest-64bit',
      comments: '',
      memory_limit: 0,
      created: res.body.created,
      updated: res.body.created,
      root_device: '/dev/sda',
      devices: { sda: null, sdb: null, sdc: null, sdd: null, sde: null, sdf: null, sdg: null, sdh: null },
      initrd: null,
      run_level: 'default',
      virt_mode: 'paravirt',
      interfaces: [],
    })
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    assert.equal(events.body.data[0].action, 'compute_config_create')
    assert.deepEqual(events.body.data[0].secondary_entity, {
      id: res.body.id,
      type: 'compute_config',
      label: 'go-test-conf',
      url: `/v4/compute/instances/${instance.id}/configs/${res.body.id}`,
    })
  })

  it('takes every field, with devices naming the instance’s disks', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const [root, swap] = await disksOf(owner, instance.id)
    const res = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'rescue',
        comments: 'for emergencies',
        kernel: 'compute/direct-disk',
        memory_limit: 512,
        run_level: 'single',
        virt_mode: 'fullvirt',
        root_device: '/dev/sdb',
        helpers: { network: false },
        devices: { sda: { disk_id: swap.id }, sdb: { disk_id: root.id, volume_id: null }, sdc: null },
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.comments, 'for emergencies')
    assert.equal(res.body.kernel, 'compute/direct-disk')
    assert.equal(res.body.memory_limit, 512)
    assert.equal(res.body.run_level, 'single')
    assert.equal(res.body.virt_mode, 'fullvirt')
    assert.equal(res.body.root_device, '/dev/sdb')
    assert.equal(res.body.helpers.network, false)
    assert.equal(res.body.helpers.distro, true)
    assert.deepEqual(res.body.devices.sda, { disk_id: swap.id, volume_id: null })
    assert.deepEqual(res.body.devices.sdb, { disk_id: root.id, volume_id: null })
  })

  it('lists (paged, filterable by label) and views profiles with their interfaces', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: { label: 'second', devices: {} },
    })
    const list = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
    })
    assert.equal(list.body.results, 2)
    assert.equal(list.body.data[0].interfaces.length, 1)
    const filtered = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ label: 'second' }) },
    })
    assert.deepEqual(
      filtered.body.data.map((c: { label: string }) => c.label),
      ['second'],
    )
    const view = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/configs/${list.body.data[0].id}`,
      headers: owner.headers,
    })
    assert.deepEqual(view.body, list.body.data[0])
  })

  it('updates the fields sent and keeps the others', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const config = await firstConfig(api, owner, instance.id)
    api.clock.advance(2000)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${instance.id}/configs/${config.id}`,
      headers: owner.headers,
      payload: {
        label: 'renamed',
        helpers: { updatedb_disabled: false },
        devices: { sda: { disk_id: defined(config.devices.sda).disk_id } },
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'renamed')
    assert.equal(res.body.kernel, config.kernel)
    assert.equal(res.body.helpers.updatedb_disabled, false)
    assert.equal(res.body.helpers.network, true)
    assert.deepEqual(res.body.devices.sda, config.devices.sda)
    assert.equal(res.body.devices.sdb, null, 'devices sent replace the map')
    assert.notEqual(res.body.updated, config.updated)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'compute_config_update' }) },
    })
    assert.equal(events.body.data[0].secondary_entity.label, 'renamed')
  })

  it('attaches and detaches subnets through the interfaces list, keeping interfaces it continues', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'a', ipv4: '10.0.0.0/24' },
        { label: 'b', ipv4: '10.0.1.0/24' },
      ],
    })
    const [a, b] = vpc.subnets
    const instance = await createInstance(api, owner, { booted: false })
    const config = await firstConfig(api, owner, instance.id)
    const put = (interfaces: unknown) =>
      api.request({
        method: 'PUT',
        url: `/v4/compute/instances/${instance.id}/configs/${config.id}`,
        headers: owner.headers,
        payload: { interfaces },
      })
    const attached = await put([
      { purpose: 'public' },
      { purpose: 'vpc', subnet_id: a.id, ipv4: { vpc: '10.0.0.9' } },
    ])
    assert.equal(attached.status, 200, JSON.stringify(attached.body))
    const [pub, vpcIface] = attached.body.interfaces
    assert.equal(vpcIface.ipv4.vpc, '10.0.0.9')
    // The same list again (as Terraform sends it): same interfaces, same address.
    const again = await put([{ purpose: 'public' }, { purpose: 'vpc', subnet_id: a.id }])
    assert.deepEqual(
      again.body.interfaces.map((i: { id: number }) => i.id),
      [pub.id, vpcIface.id],
    )
    assert.equal(again.body.interfaces[1].ipv4.vpc, '10.0.0.9')
    // Another subnet: a new interface replaces the old one.
    const moved = await put([{ purpose: 'vpc', subnet_id: b.id }])
    assert.equal(moved.body.interfaces.length, 1)
    assert.notEqual(moved.body.interfaces[0].id, vpcIface.id)
    assert.equal(moved.body.interfaces[0].subnet_id, b.id)
    const subnetA = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets/${a.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(subnetA.body.linodes, [])
    const cleared = await put([])
    assert.deepEqual(cleared.body.interfaces, [])
    const untouched = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${instance.id}/configs/${config.id}`,
      headers: owner.headers,
      payload: { comments: 'x' },
    })
    assert.deepEqual(untouched.body.interfaces, [], 'leaving interfaces out keeps them')
  })

  it('deletes a profile that is not running, freeing its subnets', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const config = await firstConfig(api, owner, instance.id)
    const url = `/v4/compute/instances/${instance.id}/configs/${config.id}`
    const refused = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [
        {
          reason:
            'The config profile a running Compute was booted from cannot be deleted; shut it down first',
        },
      ],
    })
    await power(api, owner, instance.id, 'shutdown')
    const res = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal((await api.request({ method: 'GET', url, headers: owner.headers })).status, 404)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'compute_config_delete' }) },
    })
    assert.equal(events.body.results, 1)
    const vpcDel = await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(vpcDel.status, 200)
  })
})
