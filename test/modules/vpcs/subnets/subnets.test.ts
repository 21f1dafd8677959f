import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createSubnet, createVpc, firstConfig, power } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { defined } from '../../../helpers/defined.ts'
import { createAccount } from '../../../helpers/factories.ts'

describe('subnets', () => {
  const api = useTestApp()

  it('creates a subnet, emitting subnet_create with its VPC as secondary entity', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    const res = await api.request({
      method: 'POST',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: owner.headers,
      payload: { label: 'backend', ipv4: '172.16.0.0/12' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(Object.keys(res.body), ['id', 'label', 'ipv4', 'linodes', 'created', 'updated'])
    assert.equal(res.body.label, 'backend')
    assert.equal(res.body.ipv4, '172.16.0.0/12')
    assert.deepEqual(res.body.linodes, [])
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'vpc:read_write')
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const [event] = events.body.data
    assert.equal(event.action, 'subnet_create')
    assert.equal(event.entity.id, res.body.id)
    assert.equal(event.secondary_entity.id, vpc.id)
    const fetched = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(fetched.body.subnets.length, 1)
  })

  it('accepts the widest private ranges and the edges of the allowed space', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    for (const ipv4 of ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/17', '192.168.127.248/29']) {
      const other = await createVpc(api, owner)
      await createSubnet(api, owner, other.id, ipv4)
    }
    await createSubnet(api, owner, vpc.id, '192.168.0.0/25')
  })

  it('lets different VPCs reuse the same range', async () => {
    const owner = await createAccount(api)
    const a = await createVpc(api, owner)
    const b = await createVpc(api, owner)
    await createSubnet(api, owner, a.id, '10.0.0.0/24')
    await createSubnet(api, owner, b.id, '10.0.0.0/24')
  })

  it('lists and views subnets, with X-Filter on id, label, created and updated', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'zeta', ipv4: '10.0.0.0/24' },
        { label: 'alpha', ipv4: '10.0.1.0/24' },
        { label: 'mid', ipv4: '10.0.2.0/24' },
      ],
    })
    const list = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: owner.headers,
    })
    assert.equal(list.status, 200)
    assert.equal(list.body.results, 3)
    assert.deepEqual(
      list.body.data.map((s: { label: string }) => s.label),
      ['zeta', 'alpha', 'mid'],
    )
    const ordered = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ '+order_by': 'label' }) },
    })
    assert.deepEqual(
      ordered.body.data.map((s: { label: string }) => s.label),
      ['alpha', 'mid', 'zeta'],
    )
    const one = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ id: vpc.subnets[2].id }) },
    })
    assert.deepEqual(
      one.body.data.map((s: { label: string }) => s.label),
      ['mid'],
    )
    const byIpv4 = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets`,
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ ipv4: '10.0.0.0/24' }) },
    })
    assert.deepEqual(byIpv4.body, { errors: [{ reason: 'Cannot filter on ipv4', field: 'X-Filter' }] })
    const view = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[1].id}`,
      headers: owner.headers,
    })
    assert.deepEqual(view.body, vpc.subnets[1])
  })

  it('lists every instance with an interface on the subnet, with each interface id and state', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const subnetId = vpc.subnets[0].id
    const running = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: subnetId }],
    })
    const stopped = await createInstance(api, owner, {
      booted: false,
      interfaces: [{ purpose: 'public' }, { purpose: 'vpc', subnet_id: subnetId }],
    })
    // A second profile of the running instance on the same subnet: listed though not booted.
    const extra = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${running.id}/configs`,
      headers: owner.headers,
      payload: { label: 'spare', devices: {}, interfaces: [{ purpose: 'vpc', subnet_id: subnetId }] },
    })
    assert.equal(extra.status, 200, JSON.stringify(extra.body))
    const runningConfig = await firstConfig(api, owner, running.id)
    const stoppedConfig = await firstConfig(api, owner, stopped.id)
    const subnet = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets/${subnetId}`,
      headers: owner.headers,
    })
    assert.deepEqual(subnet.body.linodes, [
      {
        id: running.id,
        interfaces: [
          { id: defined(runningConfig.interfaces[0]).id, active: true },
          { id: extra.body.interfaces[0].id, active: false },
        ],
      },
      { id: stopped.id, interfaces: [{ id: defined(stoppedConfig.interfaces[1]).id, active: false }] },
    ])
    await power(api, owner, running.id, 'shutdown')
    const after = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.deepEqual(
      after.body.subnets[0].linodes[0].interfaces.map((i: { active: boolean }) => i.active),
      [false, false],
    )
  })

  it('updates only the label, emitting subnet_update', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'old', ipv4: '10.0.0.0/24' }] })
    const res = await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`,
      headers: owner.headers,
      payload: { label: 'new', ipv4: '10.9.0.0/24' },
    })
    assert.equal(res.status, 200)
    assert.equal(res.body.label, 'new')
    assert.equal(res.body.ipv4, '10.0.0.0/24', 'the range never changes')
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'subnet_update' }) },
    })
    assert.equal(events.body.results, 1)
    assert.equal(events.body.data[0].entity.label, 'new')
    assert.equal(events.body.data[0].secondary_entity.id, vpc.id)
  })

  it('deletes an unused subnet (subnet_delete), then one freed by deleting its interface', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'unused', ipv4: '10.0.0.0/24' },
        { label: 'used', ipv4: '10.0.1.0/24' },
      ],
    })
    const [unused, used] = vpc.subnets
    const del = await api.request({
      method: 'DELETE',
      url: `/v4/vpcs/${vpc.id}/subnets/${unused.id}`,
      headers: owner.headers,
    })
    assert.equal(del.status, 200)
    assert.deepEqual(del.body, {})

    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: used.id }],
    })
    const config = await firstConfig(api, owner, instance.id)
    const refused = await api.request({
      method: 'DELETE',
      url: `/v4/vpcs/${vpc.id}/subnets/${used.id}`,
      headers: owner.headers,
    })
    assert.equal(refused.status, 400)
    await power(api, owner, instance.id, 'shutdown')
    const iface = await api.request({
      method: 'DELETE',
      url: `/v4/compute/instances/${instance.id}/configs/${config.id}/interfaces/${defined(config.interfaces[0]).id}`,
      headers: owner.headers,
    })
    assert.equal(iface.status, 200)
    const freed = await api.request({
      method: 'DELETE',
      url: `/v4/vpcs/${vpc.id}/subnets/${used.id}`,
      headers: owner.headers,
    })
    assert.equal(freed.status, 200, JSON.stringify(freed.body))
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'subnet_delete' }) },
    })
    assert.equal(events.body.results, 2)
  })

  it('frees a subnet when the instance using it is deleted', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const del = await api.request({
      method: 'DELETE',
      url: `/v4/compute/instances/${instance.id}`,
      headers: owner.headers,
    })
    assert.equal(del.status, 200)
    const vpcDel = await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(vpcDel.status, 200, JSON.stringify(vpcDel.body))
  })
})
