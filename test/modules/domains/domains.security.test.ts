import { describe } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import type { TestUser } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { createDomain, createRecord } from './domain-fixtures.ts'

describe('domain and record routes: security', () => {
  const api = useTestApp()
  const one = async (owner: TestUser) => `/v4/domains/${(await createDomain(api, owner)).id}`
  const record = async (owner: TestUser) => {
    const domain = await createDomain(api, owner)
    return `/v4/domains/${domain.id}/records/${(await createRecord(api, owner, domain.id)).id}`
  }
  const read = { scopes: ['domains:read_only' as const], success: 200 }
  const write = { scopes: ['domains:read_write' as const], success: 200, restricted: 403 }

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/domains',
      prepare: async () => ({ url: '/v4/domains' }),
      ...read,
      restricted: 200,
    },
    {
      method: 'GET',
      route: '/v4/domains/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      ...read,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/domains',
      prepare: async () => ({
        url: '/v4/domains',
        payload: { domain: 'secure.example', type: 'master', soa_email: 'a@secure.example' },
      }),
      ...write,
    },
    {
      method: 'PUT',
      route: '/v4/domains/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner), payload: { description: 'x' } }),
      ...write,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/domains/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      ...write,
      crossAccount: true,
    },
    {
      method: 'GET',
      route: '/v4/domains/{id}/records',
      prepare: async (_api, owner) => ({ url: `${await one(owner)}/records` }),
      ...read,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'GET',
      route: '/v4/domains/{id}/records/{recordId}',
      prepare: async (_api, owner) => ({ url: await record(owner) }),
      ...read,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/domains/{id}/records',
      prepare: async (_api, owner) => ({
        url: `${await one(owner)}/records`,
        payload: { type: 'TXT', name: 'x', target: 'hello' },
      }),
      ...write,
      crossAccount: true,
    },
    {
      method: 'PUT',
      route: '/v4/domains/{id}/records/{recordId}',
      prepare: async (_api, owner) => ({ url: await record(owner), payload: { ttl_sec: 300 } }),
      ...write,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/domains/{id}/records/{recordId}',
      prepare: async (_api, owner) => ({ url: await record(owner) }),
      ...write,
      crossAccount: true,
    },
  ])
})
