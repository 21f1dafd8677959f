import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../../helpers/factories.ts'
import { createDomain, createRecord } from './domain-fixtures.ts'

describe('domains', () => {
  const api = useTestApp()
  const get = (owner: TestUser, url: string, filter?: object) =>
    api.request({
      method: 'GET',
      url,
      headers: { ...owner.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })
  const events = async (owner: TestUser, action: string) =>
    (await get(owner, '/v4/account/events', { action })).body.data

  it('creates a primary domain with the real defaults', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'POST',
      url: '/v4/domains',
      headers: owner.headers,
      payload: { domain: 'Example.COM.', type: 'master', soa_email: 'admin@example.com', tags: ['prod'] },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const domain = res.body
    assert.deepEqual(Object.keys(domain), [
      'id',
      'type',
      'domain',
      'tags',
      'group',
      'status',
      'description',
      'soa_email',
      'retry_sec',
      'master_ips',
      'axfr_ips',
      'expire_sec',
      'refresh_sec',
      'ttl_sec',
      'created',
      'updated',
    ])
    assert.equal(domain.domain, 'example.com', 'names are stored in lower case, without the root dot')
    assert.equal(domain.status, 'active')
    assert.deepEqual(domain.master_ips, [])
    assert.equal(domain.ttl_sec, 0)
    const [event] = await events(owner, 'domain_create')
    assert.deepEqual(event.entity, {
      label: 'example.com',
      id: domain.id,
      type: 'domain',
      url: `/v4/domains/${domain.id}`,
    })
    assert.equal((await get(owner, `/v4/domains/${domain.id}`)).body.soa_email, 'admin@example.com')
  })

  it('creates a secondary domain from its primary addresses', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner, {
      type: 'slave',
      soa_email: undefined,
      master_ips: ['192.0.2.1', '2001:db8::1'],
    })
    assert.equal(domain.type, 'slave')
    assert.deepEqual(domain.master_ips, ['192.0.2.1', '2001:db8::1'])
    assert.equal(domain.soa_email, '')
  })

  it('rounds the zone times up to allowed values', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner, {
      ttl_sec: 301,
      refresh_sec: 3600,
      retry_sec: 1,
      expire_sec: 9999999,
    })
    assert.deepEqual(
      [domain.ttl_sec, domain.refresh_sec, domain.retry_sec, domain.expire_sec],
      [3600, 3600, 30, 2419200],
    )
  })

  it('updates a domain and records the change', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/domains/${domain.id}`,
      headers: owner.headers,
      payload: { description: 'main zone', status: 'disabled', axfr_ips: ['198.51.100.7'], ttl_sec: 7000 },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.description, 'main zone')
    assert.equal(res.body.status, 'disabled')
    assert.deepEqual(res.body.axfr_ips, ['198.51.100.7'])
    assert.equal(res.body.ttl_sec, 7200)
    assert.equal((await events(owner, 'domain_update'))[0].entity.id, domain.id)
  })

  it('deletes a domain with its records', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner)
    const record = await createRecord(api, owner, domain.id)
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/domains/${domain.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.equal((await get(owner, `/v4/domains/${domain.id}`)).status, 404)
    assert.equal((await get(owner, `/v4/domains/${domain.id}/records/${record.id}`)).status, 404)
    assert.equal((await events(owner, 'domain_delete'))[0].entity.id, domain.id)
  })

  it('filters, orders and pages the list', async () => {
    const owner = await createAccount(api)
    await createDomain(api, owner, { domain: 'b-zone.example' })
    await createDomain(api, owner, { domain: 'a-zone.example' })
    await createDomain(api, owner, { domain: 'c-zone.example', type: 'slave', master_ips: ['192.0.2.1'] })
    const ordered = await get(owner, '/v4/domains', { type: 'master', '+order_by': 'domain' })
    assert.deepEqual(
      ordered.body.data.map((d: { domain: string }) => d.domain),
      ['a-zone.example', 'b-zone.example'],
    )
    const page = await get(owner, '/v4/domains?page=1&page_size=25')
    assert.deepEqual([page.body.page, page.body.pages, page.body.results], [1, 1, 3])
    assert.equal((await get(owner, '/v4/domains', { unknown: 1 })).status, 400)
  })

  it('shows a restricted user only the domains granted, in the grants document too', async () => {
    const owner = await createAccount(api)
    const seen = await createDomain(api, owner)
    await createDomain(api, owner)
    const member = await createUser(api, owner)
    await grantEntity(api, member, 'domain', seen.id, 'read_only')
    const list = await get(member, '/v4/domains')
    assert.deepEqual(
      list.body.data.map((d: { id: number }) => d.id),
      [seen.id],
    )
    const grants = await get(owner, `/v4/account/users/${member.user.username}/grants`)
    const domains = grants.body.domain as Array<{ id: number; label: string; permissions: string | null }>
    assert.deepEqual(
      domains.find((d) => d.id === seen.id),
      { id: seen.id, label: seen.domain, permissions: 'read_only' },
    )
    assert.equal(domains.length, 2)
  })
})
