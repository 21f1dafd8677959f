import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, firstConfig, power } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { defined } from '../../../helpers/defined.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'

const INTERFACE_KEYS = [
  'id',
  'purpose',
  'primary',
  'active',
  'ipam_address',
  'label',
  'vpc_id',
  'subnet_id',
  'ipv4',
  'ip_ranges',
]

describe('config interfaces', () => {
  const api = useTestApp()

  /** An offline instance and its profile, with a VPC of one subnet. */
  async function setup(owner: TestUser, ipv4 = '192.168.0.0/25') {
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4 }] })
    const instance = await createInstance(api, owner, { booted: false })
    const config = await firstConfig(api, owner, instance.id)
    const base = `/v4/compute/instances/${instance.id}/configs/${config.id}/interfaces`
    const add = (payload: object) =>
      api.request({ method: 'POST', url: base, headers: owner.headers, payload })
    return { vpc, subnet: vpc.subnets[0], instance, config, base, add }
  }

  it('attaches a subnet: the recorded shape, the first address .2, gateway .1', async () => {
    const owner = await createAccount(api)
    const { vpc, subnet, base, add, instance, config } = await setup(owner)
    api.clock.advance(3000)
    const res = await add({ purpose: 'vpc', subnet_id: subnet.id })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(Object.keys(res.body), INTERFACE_KEYS)
    assert.deepEqual(res.body, {
      id: res.body.id,
      purpose: 'vpc',
      primary: false,
      active: false,
      ipam_address: null,
      label: null,
      vpc_id: vpc.id,
      subnet_id: subnet.id,
      ipv4: { vpc: '192.168.0.2', nat_1_1: null },
      ip_ranges: [],
    })
    const list = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(list.body, [res.body], 'a bare array')
    const one = await api.request({ method: 'GET', url: `${base}/${res.body.id}`, headers: owner.headers })
    assert.deepEqual(one.body, res.body)
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    assert.equal(events.body.data[0].action, 'compute_config_update')
    assert.equal(events.body.data[0].entity.id, instance.id)
    const profile = await firstConfig(api, owner, instance.id)
    assert.notEqual(profile.updated, config.updated, 'an interface change updates its profile')
  })

  it('shows public and vlan interfaces with null ipv4 and ip_ranges', async () => {
    const owner = await createAccount(api)
    const { add } = await setup(owner)
    const pub = await add({ purpose: 'public', label: '', ipam_address: null })
    assert.deepEqual(pub.body, {
      id: pub.body.id,
      purpose: 'public',
      primary: false,
      active: false,
      ipam_address: null,
      label: null,
      vpc_id: null,
      subnet_id: null,
      ipv4: null,
      ip_ranges: null,
    })
    const vlan = await add({ purpose: 'vlan', label: 'testvlan' })
    assert.equal(vlan.body.label, 'testvlan')
    assert.equal(vlan.body.ipam_address, '')
    const withIpam = await add({ purpose: 'vlan', label: 'other-vlan', ipam_address: '10.0.0.1/24' })
    assert.equal(withIpam.body.ipam_address, '10.0.0.1/24')
    assert.equal(withIpam.body.ipv4, null)
  })

  it('assigns the next free address per instance, and accepts a chosen one', async () => {
    const owner = await createAccount(api)
    const first = await setup(owner)
    const a = await first.add({ purpose: 'vpc', subnet_id: first.subnet.id })
    assert.equal(a.body.ipv4.vpc, '192.168.0.2')
    const other = await createInstance(api, owner, { booted: false })
    const otherConfig = await firstConfig(api, owner, other.id)
    const otherBase = `/v4/compute/instances/${other.id}/configs/${otherConfig.id}/interfaces`
    const b = await api.request({
      method: 'POST',
      url: otherBase,
      headers: owner.headers,
      payload: { purpose: 'vpc', subnet_id: first.subnet.id },
    })
    assert.equal(b.body.ipv4.vpc, '192.168.0.3')
    const third = await createInstance(api, owner, {
      booted: false,
      interfaces: [{ purpose: 'vpc', subnet_id: first.subnet.id, ipv4: { vpc: '192.168.0.125' } }],
    })
    const thirdConfig = await firstConfig(api, owner, third.id)
    assert.equal(
      defined(thirdConfig.interfaces[0]).ipv4?.vpc,
      '192.168.0.125',
      'the last usable address of a /25',
    )
  })

  it('lets one instance repeat its address in another profile', async () => {
    const owner = await createAccount(api)
    const { subnet, add, instance } = await setup(owner)
    await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '192.168.0.10' } })
    const second = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'second',
        devices: {},
        interfaces: [{ purpose: 'vpc', subnet_id: subnet.id, ipv4: { vpc: '192.168.0.10' } }],
      },
    })
    assert.equal(second.status, 200, JSON.stringify(second.body))
  })

  it('resolves nat_1_1 "any" (or the address itself) to the public IPv4', async () => {
    const owner = await createAccount(api)
    const { subnet, add, instance, base } = await setup(owner)
    const res = await add({ purpose: 'vpc', subnet_id: subnet.id, ipv4: { nat_1_1: 'any' } })
    assert.equal(res.body.ipv4.nat_1_1, instance.ipv4[0])
    const cleared = await api.request({
      method: 'PUT',
      url: `${base}/${res.body.id}`,
      headers: owner.headers,
      payload: { ipv4: { nat_1_1: '' } },
    })
    assert.deepEqual(cleared.body.ipv4, { vpc: '192.168.0.2', nat_1_1: null })
    const explicit = await api.request({
      method: 'PUT',
      url: `${base}/${res.body.id}`,
      headers: owner.headers,
      payload: { ipv4: { nat_1_1: instance.ipv4[0] } },
    })
    assert.equal(explicit.body.ipv4.nat_1_1, instance.ipv4[0])
  })

  it('routes ip_ranges: replaced when sent, kept when left out, cleared with []', async () => {
    const owner = await createAccount(api)
    const { subnet, add, base } = await setup(owner, '10.0.0.0/24')
    const res = await add({ purpose: 'vpc', subnet_id: subnet.id, ip_ranges: ['10.0.0.64/26', '10.0.0.32'] })
    assert.deepEqual(res.body.ip_ranges, ['10.0.0.64/26', '10.0.0.32/32'])
    const url = `${base}/${res.body.id}`
    const kept = await api.request({ method: 'PUT', url, headers: owner.headers, payload: { primary: true } })
    assert.deepEqual(kept.body.ip_ranges, ['10.0.0.64/26', '10.0.0.32/32'])
    assert.equal(kept.body.primary, true)
    const replaced = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { ip_ranges: ['10.0.0.128/27'] },
    })
    assert.deepEqual(replaced.body.ip_ranges, ['10.0.0.128/27'])
    const fetched = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.deepEqual(fetched.body.ip_ranges, ['10.0.0.128/27'])
    const cleared = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { ip_ranges: [] },
    })
    assert.deepEqual(cleared.body.ip_ranges, [])
  })

  it('changes the VPC address on update but never the subnet', async () => {
    const owner = await createAccount(api)
    const { subnet, add, base } = await setup(owner)
    const other = await createVpc(api, owner, { subnets: [{ label: 'x', ipv4: '10.9.0.0/24' }] })
    const res = await add({ purpose: 'vpc', subnet_id: subnet.id })
    const url = `${base}/${res.body.id}`
    const moved = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { ipv4: { vpc: '192.168.0.77' }, subnet_id: other.subnets[0].id, purpose: 'public' },
    })
    assert.equal(moved.status, 200, JSON.stringify(moved.body))
    assert.equal(moved.body.ipv4.vpc, '192.168.0.77')
    assert.equal(moved.body.subnet_id, subnet.id)
    assert.equal(moved.body.purpose, 'vpc')
  })

  it('a new primary clears the old one', async () => {
    const owner = await createAccount(api)
    const { subnet, add, base } = await setup(owner)
    const pub = await add({ purpose: 'public', primary: true })
    const vpcIface = await add({ purpose: 'vpc', subnet_id: subnet.id, primary: true })
    const list = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(
      list.body.map((i: { id: number; primary: boolean }) => [i.id, i.primary]),
      [
        [pub.body.id, false],
        [vpcIface.body.id, true],
      ],
    )
    await api.request({
      method: 'PUT',
      url: `${base}/${pub.body.id}`,
      headers: owner.headers,
      payload: { primary: true },
    })
    const after = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(
      after.body.map((i: { primary: boolean }) => i.primary),
      [true, false],
    )
  })

  it('becomes active at the next boot; deleting an inactive one keeps eth order', async () => {
    const owner = await createAccount(api)
    const { subnet, add, base, instance } = await setup(owner)
    const pub = await add({ purpose: 'public' })
    const vpcIface = await add({ purpose: 'vpc', subnet_id: subnet.id })
    const vlan = await add({ purpose: 'vlan', label: 'backplane', ipam_address: '10.10.0.1/24' })
    await power(api, owner, instance.id, 'boot')
    const running = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(
      running.body.map((i: { active: boolean }) => i.active),
      [true, true, true],
    )
    await power(api, owner, instance.id, 'shutdown')
    const del = await api.request({ method: 'DELETE', url: `${base}/${pub.body.id}`, headers: owner.headers })
    assert.equal(del.status, 200)
    assert.deepEqual(del.body, {})
    const left = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(
      left.body.map((i: { id: number }) => i.id),
      [vpcIface.body.id, vlan.body.id],
    )
    const readd = await add({ purpose: 'public' })
    const order = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(
      order.body.map((i: { id: number }) => i.id),
      [vpcIface.body.id, vlan.body.id, readd.body.id],
    )
  })

  it("reorders a profile's interfaces when each is named once, with a config update event", async () => {
    const owner = await createAccount(api)
    const { subnet, add, base } = await setup(owner)
    const ids = [
      (await add({ purpose: 'public' })).body.id,
      (await add({ purpose: 'vpc', subnet_id: subnet.id })).body.id,
      (await add({ purpose: 'vlan', label: 'backplane' })).body.id,
    ] as number[]
    const order = (payload: object) =>
      api.request({ method: 'POST', url: `${base}/order`, headers: owner.headers, payload })
    const wanted = [ids[2], ids[0], ids[1]]
    const done = await order({ ids: wanted })
    assert.equal(done.status, 200, JSON.stringify(done.body))
    assert.deepEqual(done.body, {})
    const listed = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(
      listed.body.map((i: { id: number }) => i.id),
      wanted,
    )
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'compute_config_update' }) },
    })
    assert.equal(events.body.results, 4)
    for (const bad of [[ids[0], ids[1]], [ids[0], ids[1], ids[1]], [ids[0], ids[1], 999_999], []]) {
      const refused = await order({ ids: bad })
      assert.equal(refused.status, 400, JSON.stringify(bad))
      assert.equal(refused.body.errors[0].field, 'ids')
    }
    const still = await api.request({ method: 'GET', url: base, headers: owner.headers })
    assert.deepEqual(still.body, listed.body)
  })
})
