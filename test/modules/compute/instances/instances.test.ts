import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, firstConfig, label, ROOT_PASS } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { defined } from '../../../helpers/defined.ts'
import { createAccount, createUser, grantEntity, grantGlobal } from '../../../helpers/factories.ts'
import { INSTANCE_KEYS } from '../../../helpers/wire-keys.ts'

describe('compute instances', () => {
  const api = useTestApp()

  it('creates, deploys and boots an instance in one request, in the real key order', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: {
        type: 'g6-standard-2',
        region: 'us-ord',
        image: 'compute/debian12',
        root_pass: ROOT_PASS,
        label: 'web-1',
        tags: ['prod'],
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const instance = res.body
    assert.deepEqual(Object.keys(instance), INSTANCE_KEYS)
    assert.equal(instance.label, 'web-1')
    assert.equal(instance.status, 'running')
    assert.equal(instance.type, 'g6-standard-2')
    assert.equal(instance.image, 'compute/debian12')
    assert.equal(instance.region, 'us-ord')
    assert.deepEqual(instance.specs, { disk: 81920, memory: 4096, vcpus: 2, gpus: 0, transfer: 4000 })
    assert.deepEqual(instance.alerts, {
      cpu: 180,
      network_in: 10,
      network_out: 10,
      transfer_quota: 80,
      io: 10000,
    })
    assert.deepEqual(instance.backups, {
      enabled: false,
      available: false,
      schedule: { day: null, window: null },
      last_successful: null,
    })
    assert.equal(instance.group, '')
    assert.deepEqual(instance.tags, ['prod'])
    assert.equal(instance.hypervisor, 'kvm')
    assert.equal(instance.watchdog_enabled, true)
    assert.equal(instance.has_user_data, false)
    assert.match(instance.host_uuid, /^[0-9a-f]{40}$/)
    assert.equal(instance.ipv4.length, 1)
    assert.match(instance.ipv4[0], /^198\.1[89]\.\d+\.\d+$/)
    assert.match(instance.ipv6, /^2001:db8::[0-9a-f:]+\/128$/)
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'computes:read_write')
    const fetched = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(fetched.body, instance)
  })

  it('makes the root disk from the image and a swap disk, and a profile using both', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner, { image: 'compute/ubuntu22.04' })
    const disks = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/disks`,
      headers: owner.headers,
    })
    assert.deepEqual(
      disks.body.data.map((d: { label: string; filesystem: string; size: number; status: string }) => [
        d.label,
        d.filesystem,
        d.size,
        d.status,
      ]),
      [
        ['Ubuntu 22.04 LTS Disk', 'ext4', 25088, 'ready'],
        ['512 MB Swap Image', 'swap', 512, 'ready'],
      ],
    )
    const config = await firstConfig(api, owner, instance.id)
    assert.equal(config.label, 'My Ubuntu 22.04 LTS Disk Profile')
    assert.equal(config.kernel, 'compute/grub2')
    assert.deepEqual(config.devices.sda, { disk_id: disks.body.data[0].id, volume_id: null })
    assert.deepEqual(config.devices.sdb, { disk_id: disks.body.data[1].id, volume_id: null })
    assert.deepEqual(config.interfaces, [])
  })

  it('records compute_create, disk_create, compute_config_create and compute_boot, all on the instance', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const list = events.body.data.reverse()
    assert.deepEqual(
      list.map((e: { action: string }) => e.action),
      ['compute_create', 'disk_create', 'disk_create', 'compute_config_create', 'compute_boot'],
    )
    for (const event of list) {
      assert.deepEqual(event.entity, {
        label: instance.label,
        id: instance.id,
        type: 'compute',
        url: `/v4/compute/instances/${instance.id}`,
      })
    }
    assert.equal(list[0].status, 'finished')
    assert.equal(list[0].percent_complete, 100)
    assert.equal(list[1].secondary_entity.type, 'disks')
    assert.equal(list[3].secondary_entity.type, 'compute_config')
    assert.equal(list[3].status, 'notification')
    assert.equal(list[4].secondary_entity.id, list[3].secondary_entity.id)
  })

  it('without an image: offline, no disks and no profile; booted:false leaves a deployed one offline', async () => {
    const owner = await createAccount(api)
    const bare = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: { type: 'g6-nanode-1', region: 'us-iad' },
    })
    assert.equal(bare.status, 200, JSON.stringify(bare.body))
    assert.equal(bare.body.status, 'offline')
    assert.equal(bare.body.image, null)
    assert.equal(bare.body.label, `compute${bare.body.id}`, 'default label: the neutral word and the id')
    const disks = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${bare.body.id}/disks`,
      headers: owner.headers,
    })
    assert.equal(disks.body.results, 0)
    const configs = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${bare.body.id}/configs`,
      headers: owner.headers,
    })
    assert.equal(configs.body.results, 0)
    const unbooted = await createInstance(api, owner, { booted: false })
    assert.equal(unbooted.status, 'offline')
  })

  it('attaches VPC subnets through `interfaces` at creation, with or without an image', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const deployed = await createInstance(api, owner, {
      interfaces: [
        { purpose: 'public' },
        { purpose: 'vpc', subnet_id: vpc.subnets[0].id, ipv4: { nat_1_1: 'any' } },
      ],
    })
    const config = await firstConfig(api, owner, deployed.id)
    assert.deepEqual(config.interfaces[1], {
      id: defined(config.interfaces[1]).id,
      purpose: 'vpc',
      primary: false,
      active: true,
      ipam_address: null,
      label: null,
      vpc_id: vpc.id,
      subnet_id: vpc.subnets[0].id,
      ipv4: { vpc: '10.0.0.2', nat_1_1: deployed.ipv4[0] },
      ip_ranges: [],
    })
    const bare = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: {
        type: 'g6-nanode-1',
        region: 'us-iad',
        interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
      },
    })
    assert.equal(bare.status, 200, JSON.stringify(bare.body))
    const bareConfig = await firstConfig(api, owner, bare.body.id)
    assert.equal(bareConfig.label, 'My Compute Profile')
    assert.equal(defined(bareConfig.interfaces[0]).ipv4?.vpc, '10.0.0.3')
    assert.equal(defined(bareConfig.interfaces[0]).active, false)
  })

  it('gives every instance of a region its own public address', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const a = await createInstance(api, owner, { region: 'fr-par' })
    const b = await createInstance(api, other, { region: 'fr-par' })
    const c = await createInstance(api, owner, { region: 'fr-par' })
    assert.equal(new Set([a.ipv4[0], b.ipv4[0], c.ipv4[0]]).size, 3)
  })

  it('lists instances with paging and X-Filter', async () => {
    const owner = await createAccount(api)
    const a = await createInstance(api, owner, { label: 'alpha', region: 'us-iad' })
    await createInstance(api, owner, { label: 'bravo', region: 'us-ord', type: 'g6-standard-1' })
    const all = await api.request({ method: 'GET', url: '/v4/compute/instances', headers: owner.headers })
    assert.equal(all.body.results, 2)
    assert.deepEqual(Object.keys(all.body.data[0]), INSTANCE_KEYS)
    assert.deepEqual(all.body.data[0], a)
    const filtered = await api.request({
      method: 'GET',
      url: '/v4/compute/instances',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ type: 'g6-standard-1' }) },
    })
    assert.deepEqual(
      filtered.body.data.map((i: { label: string }) => i.label),
      ['bravo'],
    )
    assert.equal(filtered.body.data[0].specs.memory, 2048)
    const desc = await api.request({
      method: 'GET',
      url: '/v4/compute/instances',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ '+order_by': 'label', '+order': 'desc' }) },
    })
    assert.deepEqual(
      desc.body.data.map((i: { label: string }) => i.label),
      ['bravo', 'alpha'],
    )
  })

  it('updates label, group, tags, watchdog and alerts, emitting compute_update', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${instance.id}`,
      headers: owner.headers,
      payload: {
        label: 'renamed.host_1',
        group: 'web',
        tags: ['blue', 'green'],
        watchdog_enabled: false,
        alerts: { cpu: 50 },
        region: 'us-ord',
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'renamed.host_1')
    assert.equal(res.body.group, 'web')
    assert.deepEqual(res.body.tags, ['blue', 'green'])
    assert.equal(res.body.watchdog_enabled, false)
    assert.deepEqual(res.body.alerts, { ...instance.alerts, cpu: 50 })
    assert.equal(res.body.region, instance.region)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'compute_update' }) },
    })
    assert.equal(events.body.results, 1)
  })

  it('deletes an instance with its disks and profiles, emitting compute_delete', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/compute/instances/${instance.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    const gone = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}`,
      headers: owner.headers,
    })
    assert.equal(gone.status, 404)
    const disks = await api.db
      .selectFrom('compute_disks')
      .select('id')
      .where('instance_id', '=', instance.id)
      .execute()
    assert.equal(disks.length, 0)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'compute_delete' }) },
    })
    assert.equal(events.body.data[0].entity.id, instance.id)
    await createInstance(api, owner, { label: instance.label })
  })

  it('restricted users: add_computes to create (then read_write), grants to see and change', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const shared = await createInstance(api, owner)
    await createInstance(api, owner)
    const payload = { type: 'g6-nanode-1', region: 'us-iad', label: label('mine') }
    const refused = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: member.headers,
      payload,
    })
    assert.equal(refused.status, 403)
    await grantGlobal(api, member, 'add_computes')
    const own = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: member.headers,
      payload,
    })
    assert.equal(own.status, 200)
    await grantEntity(api, member, 'compute', shared.id, 'read_only')
    const list = await api.request({ method: 'GET', url: '/v4/compute/instances', headers: member.headers })
    assert.deepEqual(
      list.body.data.map((i: { id: number }) => i.id),
      [shared.id, own.body.id],
    )
    const change = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${shared.id}`,
      headers: member.headers,
      payload: { group: 'x' },
    })
    assert.equal(change.status, 403)
    const grants = await api.request({ method: 'GET', url: '/v4/profile/grants', headers: member.headers })
    assert.deepEqual(
      grants.body.compute.map((g: { id: number; permissions: string }) => [g.id, g.permissions]),
      [
        [shared.id, 'read_only'],
        [own.body.id, 'read_write'],
      ],
    )
  })

  it('lets a restricted user attach only subnets of VPCs they may change (docs/decisions.md#subnet-attachment)', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    await grantGlobal(api, member, 'add_computes')
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const payload = {
      type: 'g6-nanode-1',
      region: 'us-iad',
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    }
    const refused = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: member.headers,
      payload,
    })
    assert.equal(refused.status, 403)
    await grantEntity(api, member, 'vpc', vpc.id, 'read_only')
    const readOnly = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: member.headers,
      payload,
    })
    assert.equal(readOnly.status, 403, 'seeing the VPC is not enough to join it')
    assert.deepEqual(readOnly.body, { errors: [{ reason: 'Unauthorized' }] })
    await grantEntity(api, member, 'vpc', vpc.id, 'read_write')
    const allowed = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: member.headers,
      payload,
    })
    assert.equal(allowed.status, 200, JSON.stringify(allowed.body))
  })
})
