import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { createDomain, createRecord } from './domain-fixtures.ts'

describe('domain records', () => {
  const api = useTestApp()
  const get = (owner: TestUser, url: string, filter?: object) =>
    api.request({
      method: 'GET',
      url,
      headers: { ...owner.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })
  const events = async (owner: TestUser, action: string) =>
    (await get(owner, '/v4/account/events', { action })).body.data

  it('adds an A record, relative to the zone, with the real shape', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner, { domain: 'example.net' })
    const record = await createRecord(api, owner, domain.id, {
      type: 'A',
      name: 'www.example.net.',
      target: '192.0.2.10',
      ttl_sec: 250,
      priority: 7,
    })
    assert.deepEqual(Object.keys(record), [
      'id',
      'type',
      'name',
      'target',
      'priority',
      'weight',
      'port',
      'service',
      'protocol',
      'ttl_sec',
      'tag',
      'created',
      'updated',
    ])
    assert.equal(record.name, 'www', 'the zone is cut from a fully qualified name')
    assert.equal(record.ttl_sec, 300, 'rounded to the nearest allowed value')
    assert.equal(record.priority, 0, 'fields the type does not use stay 0')
    assert.equal(record.service, null)
    const [event] = await events(owner, 'domain_record_create')
    assert.deepEqual(event.entity, {
      label: 'example.net',
      id: domain.id,
      type: 'domain',
      url: `/v4/domains/${domain.id}`,
    })
    assert.deepEqual(event.secondary_entity, {
      label: 'www',
      id: record.id,
      type: 'domain_record',
      url: `/v4/domains/${domain.id}/records/${record.id}`,
    })
    assert.deepEqual((await get(owner, `/v4/domains/${domain.id}/records/${record.id}`)).body, record)
  })

  it('keeps each type’s own fields', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner, { domain: 'example.org' })
    const apex = await createRecord(api, owner, domain.id, {
      type: 'AAAA',
      name: 'example.org',
      target: '2001:db8::5',
    })
    assert.equal(apex.name, '')
    const mx = await createRecord(api, owner, domain.id, {
      type: 'MX',
      target: 'mail.example.org.',
      priority: 10,
    })
    assert.deepEqual([mx.target, mx.priority], ['mail.example.org', 10])
    const srv = await createRecord(api, owner, domain.id, {
      type: 'SRV',
      service: '_sip',
      protocol: 'tcp',
      port: 5060,
      weight: 5,
      priority: 20,
      target: 'sip.example.org',
    })
    assert.deepEqual(
      [srv.name, srv.service, srv.protocol, srv.port, srv.weight, srv.priority],
      ['_sip._tcp', 'sip', 'tcp', 5060, 5, 20],
    )
    const caa = await createRecord(api, owner, domain.id, {
      type: 'CAA',
      tag: 'issue',
      target: 'letsencrypt.org',
    })
    assert.equal(caa.tag, 'issue')
    const txt = await createRecord(api, owner, domain.id, {
      type: 'TXT',
      name: '_acme',
      target: 'v=spf1 -all',
    })
    assert.equal(txt.target, 'v=spf1 -all')
    const cname = await createRecord(api, owner, domain.id, {
      type: 'CNAME',
      name: 'blog',
      target: 'www.example.org',
    })
    assert.equal(cname.target, 'www.example.org')
    const ns = await createRecord(api, owner, domain.id, {
      type: 'NS',
      name: 'sub',
      target: 'ns1.example.com',
    })
    assert.equal(ns.type, 'NS')
  })

  it('updates a record under its type’s rules, then deletes it', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner)
    const record = await createRecord(api, owner, domain.id)
    const url = `/v4/domains/${domain.id}/records/${record.id}`
    const res = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { target: '192.0.2.99', ttl_sec: 100000 },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual([res.body.name, res.body.target, res.body.ttl_sec], ['www', '192.0.2.99', 86400])
    const bad = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { target: '2001:db8::1' },
    })
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body, {
      errors: [{ reason: 'Target must be a valid IPv4 address', field: 'target' }],
    })
    assert.equal((await events(owner, 'domain_record_update'))[0].secondary_entity.id, record.id)
    assert.equal((await api.request({ method: 'DELETE', url, headers: owner.headers })).status, 200)
    assert.equal((await get(owner, url)).status, 404)
    assert.equal((await events(owner, 'domain_record_delete'))[0].secondary_entity.id, record.id)
  })

  it('filters and pages a domain’s records, and only its own', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner)
    const other = await createDomain(api, owner)
    await createRecord(api, owner, other.id)
    const made = []
    for (let i = 0; i < 26; i++) {
      made.push(
        (await createRecord(api, owner, domain.id, { type: 'A', name: `h${i}`, target: `192.0.2.${i + 1}` }))
          .id,
      )
    }
    await createRecord(api, owner, domain.id, { type: 'TXT', name: 'note', target: 'hello' })
    const url = `/v4/domains/${domain.id}/records`
    const txt = await get(owner, url, { type: 'TXT' })
    assert.deepEqual(
      txt.body.data.map((r: { name: string }) => r.name),
      ['note'],
    )
    const first = await get(owner, `${url}?page=1&page_size=25`)
    assert.deepEqual([first.body.pages, first.body.results], [2, 27])
    const second = await get(owner, `${url}?page=2&page_size=25`)
    assert.deepEqual(
      [...first.body.data, ...second.body.data].slice(0, 26).map((r: { id: number }) => r.id),
      made,
    )
    const byTarget = await get(owner, url, { target: '192.0.2.3' })
    assert.deepEqual(
      byTarget.body.data.map((r: { name: string }) => r.name),
      ['h2'],
    )
    assert.equal((await get(owner, `/v4/domains/${other.id}/records/${made[0]}`)).status, 404)
  })
})
