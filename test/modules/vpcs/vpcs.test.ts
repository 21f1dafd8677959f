import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, label } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, grantGlobal } from '../../helpers/factories.ts'

const VPC_KEYS = ['id', 'label', 'description', 'region', 'subnets', 'created', 'updated']
const SUBNET_KEYS = ['id', 'label', 'ipv4', 'linodes', 'created', 'updated']

describe('VPCs', () => {
  const api = useTestApp()

  it('creates a VPC with subnets in one request, in the real key order', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner.headers,
      payload: {
        label: 'my-vpc',
        region: 'us-iad',
        description: 'demo network',
        subnets: [
          { label: 'web', ipv4: '10.0.1.0/24' },
          { label: 'db', ipv4: '192.168.0.0/25' },
        ],
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const vpc = res.body
    assert.deepEqual(Object.keys(vpc), VPC_KEYS)
    assert.equal(vpc.label, 'my-vpc')
    assert.equal(vpc.description, 'demo network')
    assert.equal(vpc.region, 'us-iad')
    assert.match(vpc.created, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    assert.equal(vpc.updated, vpc.created)
    assert.deepEqual(
      vpc.subnets.map((s: { label: string; ipv4: string }) => [s.label, s.ipv4]),
      [
        ['web', '10.0.1.0/24'],
        ['db', '192.168.0.0/25'],
      ],
    )
    for (const subnet of vpc.subnets) {
      assert.deepEqual(Object.keys(subnet), SUBNET_KEYS)
      assert.deepEqual(subnet.linodes, [])
    }
    const fetched = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(fetched.status, 200)
    assert.deepEqual(fetched.body, vpc)
  })

  it('defaults the description to "" and subnets to []', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { label: 'bare' })
    assert.equal(vpc.description, '')
    assert.deepEqual(vpc.subnets, [])
  })

  it('emits vpc_create plus one subnet_create per subnet, subnets naming their VPC', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'a', ipv4: '10.1.0.0/16' },
        { label: 'b', ipv4: '10.2.0.0/16' },
      ],
    })
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const actions = events.body.data.map((e: { action: string }) => e.action).reverse()
    assert.deepEqual(actions, ['vpc_create', 'subnet_create', 'subnet_create'])
    const [subnetEvent] = events.body.data
    assert.deepEqual(subnetEvent.entity, {
      label: 'b',
      id: vpc.subnets[1].id,
      type: 'subnet',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[1].id}`,
    })
    assert.deepEqual(subnetEvent.secondary_entity, {
      id: vpc.id,
      type: 'vpc',
      label: vpc.label,
      url: `/v4/vpcs/${vpc.id}`,
    })
    const vpcEvent = events.body.data.at(-1)
    assert.deepEqual(vpcEvent.entity, {
      label: vpc.label,
      id: vpc.id,
      type: 'vpc',
      url: `/v4/vpcs/${vpc.id}`,
    })
    assert.equal(vpcEvent.username, owner.user.username)
  })

  it('VPC and subnet ids come from separate sequences', async () => {
    const owner = await createAccount(api)
    const first = await createVpc(api, owner, {
      subnets: [
        { label: 'x', ipv4: '10.0.0.0/24' },
        { label: 'y', ipv4: '10.0.1.0/24' },
      ],
    })
    const second = await createVpc(api, owner, { subnets: [{ label: 'x', ipv4: '10.0.0.0/24' }] })
    assert.equal(second.id, first.id + 1, 'two subnets in between did not use VPC ids')
    assert.equal(second.subnets[0].id, first.subnets[1].id + 1)
  })

  it('lists VPCs with paging, X-Filter and ordering', async () => {
    const owner = await createAccount(api)
    const labels = ['alpha', 'bravo', 'charlie']
    for (const l of labels)
      await createVpc(api, owner, { label: l, region: l === 'bravo' ? 'us-ord' : 'us-iad' })
    const all = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(all.status, 200)
    assert.deepEqual(
      all.body.data.map((v: { label: string }) => v.label),
      labels,
    )
    assert.equal(all.body.results, 3)
    assert.equal(all.headers['x-accepted-oauth-scopes'], '*')

    const filtered = await api.request({
      method: 'GET',
      url: '/v4/vpcs',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ region: 'us-iad', '+order_by': 'label', '+order': 'desc' }),
      },
    })
    assert.deepEqual(
      filtered.body.data.map((v: { label: string }) => v.label),
      ['charlie', 'alpha'],
    )
    const contains = await api.request({
      method: 'GET',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ label: { '+contains': 'rav' } }) },
    })
    assert.deepEqual(
      contains.body.data.map((v: { label: string }) => v.label),
      ['bravo'],
    )
    const bad = await api.request({
      method: 'GET',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ description: 'x' }) },
    })
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body, { errors: [{ reason: 'Cannot filter on description', field: 'X-Filter' }] })

    const regions = ['fr-par', 'us-sea', 'br-gru']
    for (let i = 0; i < 24; i++) await createVpc(api, owner, { region: regions[i % 3] })
    const page2 = await api.request({
      method: 'GET',
      url: '/v4/vpcs?page=2&page_size=25',
      headers: owner.headers,
    })
    assert.equal(page2.body.page, 2)
    assert.equal(page2.body.pages, 2)
    assert.equal(page2.body.results, 27)
    assert.equal(page2.body.data.length, 2)
  })

  it('lists subnets with their attached instances for a whole page of VPCs', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const list = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    const [subnet] = list.body.data[0].subnets
    assert.equal(subnet.linodes.length, 1)
    assert.equal(subnet.linodes[0].id, instance.id)
    assert.deepEqual(Object.keys(subnet.linodes[0]), ['id', 'interfaces'])
    assert.deepEqual(Object.keys(subnet.linodes[0].interfaces[0]), ['id', 'active'])
    assert.equal(subnet.linodes[0].interfaces[0].active, true)
  })

  it('updates only label and description, and emits vpc_update', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'keep', ipv4: '10.0.0.0/24' }] })
    api.clock.advance(5000)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}`,
      headers: owner.headers,
      payload: { label: 'renamed', description: 'now described', region: 'us-ord', subnets: [] },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'renamed')
    assert.equal(res.body.description, 'now described')
    assert.equal(res.body.region, 'us-iad', 'region cannot change')
    assert.equal(res.body.subnets.length, 1, 'subnets are not changed by the VPC update')
    assert.equal(res.body.created, vpc.created)
    assert.notEqual(res.body.updated, vpc.updated)
    const sameLabel = await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}`,
      headers: owner.headers,
      payload: { label: 'renamed' },
    })
    assert.equal(sameLabel.status, 200, 'keeping its own label is not a clash')
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'vpc_update' }) },
    })
    assert.equal(events.body.results, 2)
    assert.equal(events.body.data[0].entity.label, 'renamed')
  })

  it('deletes a VPC with its subnets: vpc_delete plus a subnet_delete per subnet', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, {
      subnets: [
        { label: 'one', ipv4: '10.0.0.0/24' },
        { label: 'two', ipv4: '10.0.1.0/24' },
      ],
    })
    const res = await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    const gone = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(gone.status, 404)
    const subnet = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`,
      headers: owner.headers,
    })
    assert.equal(subnet.status, 404)
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const actions = events.body.data.map((e: { action: string }) => e.action)
    assert.equal(actions.filter((a: string) => a === 'subnet_delete').length, 2)
    assert.equal(actions.filter((a: string) => a === 'vpc_delete').length, 1)
    // The label is free again.
    await createVpc(api, owner, { label: vpc.label })
  })

  it('serves every VPC route under /v4beta too', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner)
    const res = await api.request({ method: 'GET', url: `/v4beta/vpcs/${vpc.id}`, headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.body.id, vpc.id)
  })

  describe('restricted users', () => {
    it('see only the VPCs they hold a grant on, and get read_write on the VPCs they create', async () => {
      const owner = await createAccount(api)
      const member = await createUser(api, owner)
      const shared = await createVpc(api, owner, { label: label('shared') })
      await createVpc(api, owner, { label: label('hidden') })
      await grantEntity(api, member, 'vpc', shared.id, 'read_only')

      const list = await api.request({ method: 'GET', url: '/v4/vpcs', headers: member.headers })
      assert.deepEqual(
        list.body.data.map((v: { id: number }) => v.id),
        [shared.id],
      )
      const filtered = await api.request({
        method: 'GET',
        url: '/v4/vpcs',
        headers: { ...member.headers, 'x-filter': JSON.stringify({ region: 'us-iad' }) },
      })
      assert.equal(filtered.body.results, 1)

      const update = await api.request({
        method: 'PUT',
        url: `/v4/vpcs/${shared.id}`,
        headers: member.headers,
        payload: { description: 'x' },
      })
      assert.equal(update.status, 403, 'read_only does not allow updates')

      await grantGlobal(api, member, 'add_vpcs')
      const own = await createVpc(api, member)
      const mine = await api.request({
        method: 'PUT',
        url: `/v4/vpcs/${own.id}`,
        headers: member.headers,
        payload: { description: 'mine' },
      })
      assert.equal(mine.status, 200)
      const grants = await api.request({ method: 'GET', url: '/v4/profile/grants', headers: member.headers })
      assert.deepEqual(
        grants.body.vpc.map((g: { id: number; permissions: string }) => [g.id, g.permissions]),
        [
          [shared.id, 'read_only'],
          [own.id, 'read_write'],
        ],
      )
    })

    it('see the events of VPCs they hold a grant on', async () => {
      const owner = await createAccount(api)
      const member = await createUser(api, owner)
      const shared = await createVpc(api, owner, { subnets: [{ label: 's', ipv4: '10.0.0.0/24' }] })
      await createVpc(api, owner)
      await grantEntity(api, member, 'vpc', shared.id, 'read_only')
      const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: member.headers })
      assert.deepEqual(events.body.data.map((e: { action: string }) => e.action).sort(), [
        'subnet_create',
        'vpc_create',
      ])
    })
  })
})
