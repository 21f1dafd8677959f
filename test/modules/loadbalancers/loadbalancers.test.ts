import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, grantGlobal } from '../../helpers/factories.ts'
import { createLoadBalancer } from './loadbalancer-fixtures.ts'

describe('load balancers', () => {
  const api = useTestApp()

  it('creates one with a default label, public addresses, a hostname and empty transfer', async () => {
    const owner = await createAccount(api)
    const lb = await createLoadBalancer(api, owner, { client_conn_throttle: 20 })
    assert.deepEqual(Object.keys(lb), [
      'id',
      'label',
      'region',
      'hostname',
      'ipv4',
      'ipv6',
      'created',
      'updated',
      'client_conn_throttle',
      'tags',
      'transfer',
    ])
    assert.equal(lb.label, `balancer${lb.id}`)
    assert.equal(lb.region, 'us-iad')
    assert.match(lb.ipv4, /^198\.1[89]\.\d+\.\d+$/)
    assert.match(lb.ipv6 ?? '', /^2001:db8:/)
    assert.equal(lb.hostname, `nb-${lb.ipv4.replaceAll('.', '-')}.us-iad.nodebalancer.cloudplane.test`)
    assert.equal(lb.client_conn_throttle, 20)
    assert.deepEqual(lb.tags, [])
    assert.deepEqual(lb.transfer, { in: null, out: null, total: null })
    const read = await api.request({
      method: 'GET',
      url: `/v4/loadbalancers/${lb.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(read.body, lb)
  })

  it('a default label a client already took is not refused: the next free one is given', async () => {
    const owner = await createAccount(api)
    const first = await createLoadBalancer(api, owner)
    // The next two ids: a labelled one takes the default label of the one after it.
    const taken = `balancer${first.id + 2}`
    const labelled = await createLoadBalancer(api, owner, { label: taken })
    assert.equal(labelled.id, first.id + 1)
    const next = await createLoadBalancer(api, owner)
    assert.equal(next.id, first.id + 2)
    assert.equal(next.label, `${taken}-2`)
  })

  it('gives each load balancer its own address in the region', async () => {
    const owner = await createAccount(api)
    const a = await createLoadBalancer(api, owner)
    const b = await createLoadBalancer(api, owner)
    assert.notEqual(a.ipv4, b.ipv4)
    assert.notEqual(a.hostname, b.hostname)
  })

  it("gives a deleted load balancer's address back to its region", async () => {
    const owner = await createAccount(api)
    const first = await createLoadBalancer(api, owner, { region: 'ca-central' })
    await api.request({ method: 'DELETE', url: `/v4/loadbalancers/${first.id}`, headers: owner.headers })
    const next = await createLoadBalancer(api, owner, { region: 'ca-central' })
    assert.equal(next.ipv4, first.ipv4)
  })

  it('updates label, throttle and tags, and deletes, with nodebalancer_* events', async () => {
    const owner = await createAccount(api)
    const lb = await createLoadBalancer(api, owner, { label: 'front_end-1', tags: ['web'] })
    api.clock.advance(60_000)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/loadbalancers/${lb.id}`,
      headers: owner.headers,
      payload: { label: 'front-2', client_conn_throttle: 5, tags: ['web', 'prod'], region: 'us-ord' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'front-2')
    assert.equal(res.body.client_conn_throttle, 5)
    assert.deepEqual(res.body.tags, ['web', 'prod'])
    assert.equal(res.body.region, 'us-iad', 'the region never changes')
    assert.notEqual(res.body.updated, lb.updated)
    const deleted = await api.request({
      method: 'DELETE',
      url: `/v4/loadbalancers/${lb.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(deleted.body, {})
    const gone = await api.request({
      method: 'GET',
      url: `/v4/loadbalancers/${lb.id}`,
      headers: owner.headers,
    })
    assert.equal(gone.status, 404)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ 'entity.id': lb.id, 'entity.type': 'loadbalancer' }),
      },
    })
    assert.deepEqual(
      events.body.data.map((e: { action: string }) => e.action),
      ['nodebalancer_delete', 'nodebalancer_update', 'nodebalancer_create'],
    )
    assert.deepEqual(events.body.data[1].entity, {
      label: 'front-2',
      id: lb.id,
      type: 'loadbalancer',
      url: `/v4/loadbalancers/${lb.id}`,
    })
  })

  it('lists with X-Filter and pages', async () => {
    const owner = await createAccount(api)
    const made = []
    for (let i = 0; i < 27; i++) made.push(await createLoadBalancer(api, owner, { label: `lb-${i}` }))
    const list = (query: string, filter?: object) =>
      api.request({
        method: 'GET',
        url: `/v4/loadbalancers${query}`,
        headers: { ...owner.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
      })
    const first = await list('?page_size=25')
    assert.deepEqual([first.body.page, first.body.pages, first.body.results], [1, 2, 27])
    const second = await list('?page=2&page_size=25')
    assert.deepEqual(
      second.body.data.map((l: { id: number }) => l.id),
      made.slice(25).map((l) => l.id),
    )
    const one = await list('', { label: 'lb-3' })
    assert.deepEqual(
      one.body.data.map((l: { id: number }) => l.id),
      [made[3]?.id],
    )
    const ordered = await list('?page_size=25', { '+order_by': 'label', '+order': 'desc' })
    assert.equal(ordered.body.data[0].label, 'lb-9')
    const bad = await list('', { tags: 'x' })
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body.errors, [{ reason: 'Cannot filter on tags', field: 'X-Filter' }])
  })

  it('shows a restricted user the granted ones, and lets one with add_loadbalancers create', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createLoadBalancer(api, owner)
    await createLoadBalancer(api, owner)
    await grantEntity(api, member, 'loadbalancer', granted.id, 'read_only')
    const list = await api.request({ method: 'GET', url: '/v4/loadbalancers', headers: member.headers })
    assert.deepEqual(
      list.body.data.map((l: { id: number }) => l.id),
      [granted.id],
    )
    const change = await api.request({
      method: 'PUT',
      url: `/v4/loadbalancers/${granted.id}`,
      headers: member.headers,
      payload: { label: 'nope' },
    })
    assert.equal(change.status, 403)
    await grantGlobal(api, member, 'add_loadbalancers')
    const own = await createLoadBalancer(api, member)
    const grants = await api.request({ method: 'GET', url: '/v4/profile/grants', headers: member.headers })
    assert.deepEqual(
      grants.body.loadbalancer.map((g: { id: number; permissions: string }) => [g.id, g.permissions]),
      [
        [granted.id, 'read_only'],
        [own.id, 'read_write'],
      ],
    )
    assert.equal(grants.body.global.add_loadbalancers, true)
    const admin = await api.request({
      method: 'GET',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
    })
    assert.equal(admin.body.loadbalancer.length, 3)
  })
})
