import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, firstConfig } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { defined } from '../../../helpers/defined.ts'
import { createAccount } from '../../../helpers/factories.ts'

describe('config profile refusals', () => {
  const api = useTestApp()

  it('refuses bad fields, all reported together', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const res = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'x'.repeat(49),
        kernel: 'vmlinuz',
        run_level: 'multi',
        virt_mode: 'hvm',
        memory_limit: -1,
        root_device: 'sda',
        devices: { sda: { disk_id: 'one' } },
      },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body.errors.map((e: { field: string }) => e.field).sort(), [
      'devices.sda.disk_id',
      'kernel',
      'label',
      'memory_limit',
      'root_device',
      'run_level',
      'virt_mode',
    ])
    const missing = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {},
    })
    assert.deepEqual(
      missing.body.errors.map((e: { field: string }) => e.field),
      ['label', 'devices'],
    )
  })

  it('refuses numbers no database column could hold, with a 400 rather than a database error', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const config = await firstConfig(api, owner, instance.id)
    const cases: Array<[string, string, unknown, string]> = [
      [
        'PUT',
        `/v4/compute/instances/${instance.id}/configs/${config.id}`,
        { memory_limit: 2147483648 },
        'memory_limit',
      ],
      ['POST', `/v4/compute/instances/${instance.id}/reboot`, { config_id: 1e23 }, 'config_id'],
      [
        'POST',
        `/v4/compute/instances/${instance.id}/configs/${config.id}/interfaces`,
        { purpose: 'vpc', subnet_id: 1e23 },
        'subnet_id',
      ],
    ]
    for (const [method, url, payload, field] of cases) {
      const res = await api.request({
        method: method as 'PUT',
        url,
        headers: owner.headers,
        payload: payload as object,
      })
      assert.equal(res.status, 400, `${method} ${url}: ${JSON.stringify(res.body)}`)
      assert.ok(
        res.body.errors.some((e: { field: string }) => e.field === field),
        JSON.stringify(res.body),
      )
    }
  })

  it('refuses devices naming disks of other instances, a disk twice, volumes, and a foreign initrd', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const other = await createInstance(api, owner)
    const own = await firstConfig(api, owner, instance.id)
    const theirs = await firstConfig(api, owner, other.id)
    const res = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'bad',
        devices: {
          sda: { disk_id: defined(theirs.devices.sda).disk_id },
          sdb: { disk_id: defined(own.devices.sda).disk_id },
          sdc: { disk_id: defined(own.devices.sda).disk_id },
          sdd: { volume_id: 12 },
        },
        initrd: defined(theirs.devices.sdb).disk_id,
      },
    })
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'Disk not found', field: 'initrd' },
        { reason: 'Disk not found', field: 'devices.sda.disk_id' },
        { reason: 'A disk can be assigned to only one device', field: 'devices.sdc.disk_id' },
        { reason: 'Volume not found', field: 'devices.sdd.volume_id' },
      ],
    })
  })

  it('names the offending interface by index, and writes nothing', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner)
    const res = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'bad-ifaces',
        devices: {},
        interfaces: [
          { purpose: 'public', label: 'nope' },
          { purpose: 'vpc', subnet_id: vpc.subnets[0].id, ipv4: { vpc: '10.0.1.5' } },
          { purpose: 'vlan' },
        ],
      },
    })
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'Must be empty or null for public interfaces', field: 'interfaces[0].label' },
        { reason: "Must be within the subnet's range 10.0.0.0/24", field: 'interfaces[1].ipv4.vpc' },
        { reason: 'A vlan interface needs a label', field: 'interfaces[2].label' },
      ],
    })
    const list = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
    })
    assert.equal(list.body.results, 1)
    const four = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'four',
        devices: {},
        interfaces: [
          { purpose: 'public' },
          { purpose: 'public' },
          { purpose: 'vlan', label: 'v' },
          { purpose: 'vlan', label: 'w' },
        ],
      },
    })
    assert.deepEqual(four.body, {
      errors: [{ field: 'interfaces', reason: 'interfaces must have at most 3 items' }],
    })
    const twoPublic = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'two',
        devices: {},
        interfaces: [
          { purpose: 'public', primary: true },
          { purpose: 'public', primary: true },
        ],
      },
    })
    assert.deepEqual(twoPublic.body, {
      errors: [
        { reason: 'Only one public interface is allowed per config profile', field: 'interfaces' },
        { reason: 'Only one interface can be primary', field: 'interfaces' },
      ],
    })
  })

  it('refuses to remove an active interface through the list', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const config = await firstConfig(api, owner, instance.id)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${instance.id}/configs/${config.id}`,
      headers: owner.headers,
      payload: { interfaces: [] },
    })
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'An active interface cannot be removed; shut the Compute down first', field: 'interfaces' },
      ],
    })
  })

  it('404s profiles of other instances and accounts', async () => {
    const owner = await createAccount(api)
    const a = await createInstance(api, owner)
    const b = await createInstance(api, owner)
    const config = await firstConfig(api, owner, a.id)
    const res = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${b.id}/configs/${config.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 404)
  })
})
