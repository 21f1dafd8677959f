import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, firstConfig, power } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'

describe('config interface refusals', () => {
  const api = useTestApp()

  async function setup(owner: TestUser, ipv4 = '192.168.0.0/29', booted = false) {
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4 }] })
    const instance = await createInstance(api, owner, { booted })
    const config = await firstConfig(api, owner, instance.id)
    const base = `/v4/compute/instances/${instance.id}/configs/${config.id}/interfaces`
    const add = (payload: object) =>
      api.request({ method: 'POST', url: base, headers: owner.headers, payload })
    return { vpc, subnet: vpc.subnets[0], instance, config, base, add }
  }

  it('keeps the first two and last two addresses of a subnet, and refuses addresses outside it', async () => {
    const owner = await createAccount(api)
    const { subnet, add } = await setup(owner)
    const reason = 'Must not be one of the first two or the last two addresses of the subnet'
    for (const address of ['192.168.0.0', '192.168.0.1', '192.168.0.6', '192.168.0.7']) {
      const res = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: address } })
      assert.deepEqual(res.body, { errors: [{ reason, field: 'ipv4.vpc' }] }, address)
    }
    const outside = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '192.168.0.8' } })
    assert.deepEqual(outside.body, {
      errors: [{ reason: "Must be within the subnet's range 192.168.0.0/29", field: 'ipv4.vpc' }],
    })
    const junk = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '192.168.0.02' } })
    assert.deepEqual(junk.body, { errors: [{ reason: 'Must be a valid IPv4 address', field: 'ipv4.vpc' }] })
  })

  it('refuses an address another instance holds, and assigns nothing once the subnet is full', async () => {
    const owner = await createAccount(api)
    const { subnet, add } = await setup(owner)
    // A /29 has four assignable addresses, .2 to .5.
    for (let i = 0; i < 4; i++) {
      await createInstance(api, owner, {
        booted: false,
        interfaces: [{ purpose: 'vpc', subnet_id: subnet.id }],
      })
    }
    const taken = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '192.168.0.3' } })
    assert.deepEqual(taken.body, {
      errors: [{ reason: '192.168.0.3 is already in use in this subnet', field: 'ipv4.vpc' }],
    })
    const full = await add({ purpose: 'vpc', subnet_id: subnet.id })
    assert.deepEqual(full.body, {
      errors: [{ reason: 'No IPv4 addresses are available in this subnet', field: 'ipv4.vpc' }],
    })
  })

  it('refuses a subnet of another account or region, or none at all', async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const theirs = await createVpc(api, stranger, { subnets: [{ label: 'x', ipv4: '10.0.0.0/24' }] })
    const elsewhere = await createVpc(api, owner, {
      region: 'us-ord',
      subnets: [{ label: 'y', ipv4: '10.0.0.0/24' }],
    })
    const { add } = await setup(owner)
    const foreign = await add({ purpose: 'vpc', subnet_id: theirs.subnets[0].id })
    assert.deepEqual(foreign.body, { errors: [{ reason: 'Subnet not found', field: 'subnet_id' }] })
    const region = await add({ purpose: 'vpc', subnet_id: elsewhere.subnets[0].id })
    assert.deepEqual(region.body, {
      errors: [{ reason: "The subnet's VPC is in us-ord; this Compute is in us-iad", field: 'subnet_id' }],
    })
    const none = await add({ purpose: 'vpc' })
    assert.deepEqual(none.body, {
      errors: [{ reason: 'subnet_id is required for vpc interfaces', field: 'subnet_id' }],
    })
  })

  it('refuses labels and IPAM addresses on vpc and public interfaces, and vpc fields elsewhere', async () => {
    const owner = await createAccount(api)
    const { subnet, add } = await setup(owner)
    const vpc = await add({ purpose: 'vpc', subnet_id: subnet.id, label: 'x', ipam_address: '10.0.0.1/24' })
    assert.deepEqual(vpc.body, {
      errors: [
        { reason: 'Must be empty or null for vpc interfaces', field: 'label' },
        { reason: 'Must be empty or null for vpc interfaces', field: 'ipam_address' },
      ],
    })
    const pub = await add({
      purpose: 'public',
      subnet_id: subnet.id,
      ipv4: { vpc: '10.0.0.2' },
      ip_ranges: ['10.0.0.0/28'],
    })
    assert.deepEqual(pub.body, {
      errors: [
        { reason: 'Only vpc interfaces take a subnet_id', field: 'subnet_id' },
        { reason: 'Only vpc interfaces take ipv4 addresses', field: 'ipv4' },
        { reason: 'Only vpc interfaces take ip_ranges', field: 'ip_ranges' },
      ],
    })
    const lenient = await add({
      purpose: 'public',
      subnet_id: null,
      ipv4: { vpc: '', nat_1_1: '' },
      ip_ranges: [],
    })
    assert.equal(lenient.status, 200, 'empty values are accepted')
  })

  it('refuses bad vlan interfaces: no label, a bad label or IPAM address, primary', async () => {
    const owner = await createAccount(api)
    const { add } = await setup(owner)
    const res = await add({ purpose: 'vlan', label: 'my vlan', ipam_address: '10.0.0.1', primary: true })
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'Label must include only ASCII letters, numbers, and dashes', field: 'label' },
        { reason: 'Must be an IPv4 address with its prefix, e.g. 10.0.0.1/24', field: 'ipam_address' },
        { reason: 'A vlan interface cannot be primary', field: 'primary' },
      ],
    })
    const purpose = await add({ purpose: 'wifi' })
    assert.deepEqual(purpose.body, {
      errors: [{ field: 'purpose', reason: 'purpose must be one of: public, vlan, vpc' }],
    })
  })

  it('refuses nat_1_1 other than "any" or the instance’s own address', async () => {
    const owner = await createAccount(api)
    const { subnet, add } = await setup(owner)
    const res = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { nat_1_1: '203.0.113.9' } })
    assert.deepEqual(res.body, {
      errors: [{ reason: 'Must be "any" or a public IPv4 address of this Compute', field: 'ipv4.nat_1_1' }],
    })
  })

  it('refuses ip_ranges that are not canonical, leave the subnet, include the address, overlap', async () => {
    const owner = await createAccount(api)
    const { subnet, add } = await setup(owner, '10.0.0.0/24')
    await createInstance(api, owner, {
      booted: false,
      interfaces: [
        { purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '10.0.0.200' }, ip_ranges: ['10.0.0.128/28'] },
      ],
    })
    const res = await add({
      purpose: 'vpc',
      subnet_id: subnet.id,
      ipv4: { vpc: '10.0.0.10' },
      ip_ranges: [
        'ten',
        '10.0.0.65/26',
        '10.0.1.0/28',
        '10.0.0.0/28',
        '10.0.0.8/29',
        '10.0.0.32/28',
        '10.0.0.40/29',
        '10.0.0.136/29',
        '10.0.0.192/28',
      ],
    })
    const f = (i: number) => `ip_ranges[${i}]`
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'Must be an IPv4 range in CIDR notation', field: f(0) },
        { reason: 'Must be a canonical CIDR with the host bits zero, e.g. 10.0.0.64/26', field: f(1) },
        {
          reason:
            "Must be within the subnet's range 10.0.0.0/24, without its first two and last two addresses",
          field: f(2),
        },
        {
          reason:
            "Must be within the subnet's range 10.0.0.0/24, without its first two and last two addresses",
          field: f(3),
        },
        { reason: "Must not include the interface's own address", field: f(4) },
        { reason: 'Overlaps another range of this interface', field: f(6) },
        { reason: 'Overlaps an address or range already in use in this subnet', field: f(7) },
        { reason: 'Overlaps an address or range already in use in this subnet', field: f(8) },
      ],
    })
    const inRange = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '10.0.0.130' } })
    assert.deepEqual(inRange.body, {
      errors: [{ reason: '10.0.0.130 is already in use in this subnet', field: 'ipv4.vpc' }],
    })
  })

  it('refuses a new address inside the interface’s own routed range when the ranges are kept', async () => {
    const owner = await createAccount(api)
    const { subnet, add, base, instance, config } = await setup(owner, '192.168.0.0/24')
    // Sent together, the rule holds; sent alone, the kept ranges are checked just the same.
    const together = await add({
      purpose: 'vpc',
      subnet_id: subnet.id,
      ipv4: { vpc: '192.168.0.9' },
      ip_ranges: ['192.168.0.8/29'],
    })
    assert.equal(together.status, 400)
    const created = await add({ purpose: 'vpc', subnet_id: subnet.id, ip_ranges: ['192.168.0.8/29'] })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const reason = "Must not be within this interface's routed range 192.168.0.8/29"
    const moved = await api.request({
      method: 'PUT',
      url: `${base}/${created.body.id}`,
      headers: owner.headers,
      payload: { ipv4: { vpc: '192.168.0.9' } },
    })
    assert.deepEqual([moved.status, moved.body], [400, { errors: [{ reason, field: 'ipv4.vpc' }] }])
    const profile = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${instance.id}/configs/${config.id}`,
      headers: owner.headers,
      payload: { interfaces: [{ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '192.168.0.12' } }] },
    })
    assert.deepEqual(
      [profile.status, profile.body],
      [400, { errors: [{ reason, field: 'interfaces[0].ipv4.vpc' }] }],
    )
    // Elsewhere in the subnet, the address moves and the ranges stay.
    const away = await api.request({
      method: 'PUT',
      url: `${base}/${created.body.id}`,
      headers: owner.headers,
      payload: { ipv4: { vpc: '192.168.0.20' } },
    })
    assert.equal(away.status, 200, JSON.stringify(away.body))
    assert.deepEqual([away.body.ipv4.vpc, away.body.ip_ranges], ['192.168.0.20', ['192.168.0.8/29']])
  })

  it('allows three interfaces, one public and one vpc per profile', async () => {
    const owner = await createAccount(api)
    const { subnet, add } = await setup(owner)
    assert.equal((await add({ purpose: 'public' })).status, 200)
    const pub = await add({ purpose: 'public' })
    assert.deepEqual(pub.body, {
      errors: [{ reason: 'Only one public interface is allowed per config profile', field: 'purpose' }],
    })
    assert.equal((await add({ purpose: 'vpc', subnet_id: subnet.id })).status, 200)
    const vpc = await add({ purpose: 'vpc', subnet_id: subnet.id })
    assert.deepEqual(vpc.body, {
      errors: [{ reason: 'Only one vpc interface is allowed per config profile', field: 'purpose' }],
    })
    assert.equal((await add({ purpose: 'vlan', label: 'v1' })).status, 200)
    const fourth = await add({ purpose: 'vlan', label: 'v2' })
    assert.deepEqual(fourth.body, { errors: [{ reason: 'A config profile can have at most 3 interfaces' }] })
  })

  it('refuses to update a vlan interface or give a public one vpc fields', async () => {
    const owner = await createAccount(api)
    const { add, base } = await setup(owner)
    const vlan = await add({ purpose: 'vlan', label: 'v' })
    const res = await api.request({
      method: 'PUT',
      url: `${base}/${vlan.body.id}`,
      headers: owner.headers,
      payload: { primary: false },
    })
    assert.deepEqual(res.body, { errors: [{ reason: 'VLAN interfaces cannot be updated' }] })
    const pub = await add({ purpose: 'public' })
    const bad = await api.request({
      method: 'PUT',
      url: `${base}/${pub.body.id}`,
      headers: owner.headers,
      payload: { ipv4: { vpc: '10.0.0.5' } },
    })
    assert.deepEqual(bad.body, {
      errors: [{ reason: 'Only vpc interfaces take ipv4 addresses', field: 'ipv4' }],
    })
  })

  it('refuses to delete an active interface', async () => {
    const owner = await createAccount(api)
    const { subnet, add, base, instance } = await setup(owner)
    const iface = await add({ purpose: 'vpc', subnet_id: subnet.id })
    await power(api, owner, instance.id, 'boot')
    const res = await api.request({
      method: 'DELETE',
      url: `${base}/${iface.body.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(res.body, {
      errors: [
        {
          reason:
            'An active interface cannot be deleted; shut the Compute down or boot it from another config profile first',
        },
      ],
    })
    const missing = await api.request({ method: 'GET', url: `${base}/999999`, headers: owner.headers })
    assert.equal(missing.status, 404)
  })
})
