import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { createDomain } from './domain-fixtures.ts'

describe('domains and records: refusals', () => {
  const api = useTestApp()
  const send = (owner: TestUser, method: 'POST' | 'PUT', url: string, payload: object) =>
    api.request({ method, url, headers: owner.headers, payload })
  const refused = async (res: { status: number; body: { errors: unknown[] } }, field: string) => {
    assert.equal(res.status, 400, JSON.stringify(res.body))
    const fields = res.body.errors.map((e) => (e as { field?: string }).field)
    assert.ok(fields.includes(field), `${JSON.stringify(res.body)} names ${field}`)
  }

  it('refuses invalid domains, missing SOA email or primary addresses, and duplicates', async () => {
    const owner = await createAccount(api)
    const zone = (body: object) =>
      send(owner, 'POST', '/v4/domains', { type: 'master', soa_email: 'a@b.org', ...body })
    for (const domain of ['localhost', 'bad..example', '-x.example', 'x.123', 'a b.example']) {
      await refused(await zone({ domain }), 'domain')
    }
    await refused(await zone({ domain: 'fine.example', soa_email: undefined }), 'soa_email')
    await refused(await zone({ domain: 'fine.example', soa_email: 'not-an-email' }), 'soa_email')
    await refused(await zone({ domain: 'fine.example', type: 'slave', soa_email: undefined }), 'master_ips')
    await refused(
      await zone({ domain: 'fine.example', type: 'slave', master_ips: ['1.2.3'] }),
      'master_ips[0]',
    )
    await refused(await zone({ domain: 'fine.example', axfr_ips: ['192.0.2.1', 'nope'] }), 'axfr_ips[1]')
    await refused(await zone({ domain: 'fine.example', type: 'primary' }), 'type')
    await createDomain(api, owner, { domain: 'taken.example' })
    const dup = await zone({ domain: 'TAKEN.example' })
    await refused(dup, 'domain')
    assert.deepEqual(dup.body, { errors: [{ reason: 'Domain already exists', field: 'domain' }] })
  })

  it('refuses an update that breaks the zone', async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner)
    const url = `/v4/domains/${domain.id}`
    await refused(await send(owner, 'PUT', url, { soa_email: '' }), 'soa_email')
    await refused(await send(owner, 'PUT', url, { type: 'slave' }), 'master_ips')
    await refused(await send(owner, 'PUT', url, { domain: 'nodots' }), 'domain')
  })

  it("refuses records that break their type's rules, naming the field", async () => {
    const owner = await createAccount(api)
    const domain = await createDomain(api, owner)
    const url = `/v4/domains/${domain.id}/records`
    const cases: Array<[object, string]> = [
      [{ type: 'A', name: 'www', target: '2001:db8::1' }, 'target'],
      [{ type: 'A', name: 'www', target: '300.1.1.1' }, 'target'],
      [{ type: 'AAAA', name: 'www', target: '192.0.2.1' }, 'target'],
      [{ type: 'CNAME', name: 'www', target: 'not a host' }, 'target'],
      [{ type: 'CNAME', name: '', target: 'www.example.com' }, 'name'],
      [{ type: 'NS', name: 'sub', target: '' }, 'target'],
      [{ type: 'MX', target: 'mail.example.com' }, 'priority'],
      [{ type: 'MX', target: 'mail.example.com', priority: 256 }, 'priority'],
      [{ type: 'SRV', protocol: 'tcp', port: 1, weight: 1, priority: 1, target: 'x.example.com' }, 'service'],
      [{ type: 'SRV', service: 'sip', port: 1, weight: 1, priority: 1, target: 'x.example.com' }, 'protocol'],
      [
        {
          type: 'SRV',
          service: 'sip',
          protocol: 'sctp',
          port: 1,
          weight: 1,
          priority: 1,
          target: 'x.example.com',
        },
        'protocol',
      ],
      [
        { type: 'SRV', service: 'sip', protocol: 'tcp', weight: 1, priority: 1, target: 'x.example.com' },
        'port',
      ],
      [
        { type: 'SRV', service: 'sip', protocol: 'tcp', port: 1, priority: 1, target: 'x.example.com' },
        'weight',
      ],
      [
        { type: 'SRV', service: 'sip', protocol: 'tcp', port: 1, weight: 1, target: 'x.example.com' },
        'priority',
      ],
      [
        {
          type: 'SRV',
          service: 'sip',
          protocol: 'tcp',
          port: 70000,
          weight: 1,
          priority: 1,
          target: 'x.example.com',
        },
        'port',
      ],
      [{ type: 'TXT', name: 'note' }, 'target'],
      [{ type: 'CAA', target: 'letsencrypt.org' }, 'tag'],
      [{ type: 'CAA', tag: 'issue' }, 'target'],
      [{ type: 'CAA', tag: 'iodef', target: 'not-a-url' }, 'target'],
      [{ type: 'CAA', tag: 'owner', target: 'x.org' }, 'tag'],
      [{ type: 'A', name: 'bad name', target: '192.0.2.1' }, 'name'],
      [{ type: 'A', name: 'x'.repeat(101), target: '192.0.2.1' }, 'name'],
      [{ type: 'SPF', name: 'x', target: 'y' }, 'type'],
      [{ name: 'x', target: '192.0.2.1' }, 'type'],
    ]
    for (const [body, field] of cases) await refused(await send(owner, 'POST', url, body), field)
    const none = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.equal(none.body.results, 0)
  })
})
