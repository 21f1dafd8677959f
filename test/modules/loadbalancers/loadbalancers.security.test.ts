import { describe } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { createLoadBalancer } from './loadbalancer-fixtures.ts'

describe('load balancer routes: security', () => {
  const api = useTestApp()
  const one = async (owner: Parameters<typeof createLoadBalancer>[1]) =>
    `/v4/loadbalancers/${(await createLoadBalancer(api, owner)).id}`

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/loadbalancers',
      prepare: async () => ({ url: '/v4/loadbalancers' }),
      scopes: ['nodebalancers:read_only'],
      success: 200,
      restricted: 200,
    },
    {
      method: 'GET',
      route: '/v4/loadbalancers/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      scopes: ['nodebalancers:read_only'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/loadbalancers',
      prepare: async () => ({ url: '/v4/loadbalancers', payload: { region: 'us-iad' } }),
      scopes: ['nodebalancers:read_write'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'PUT',
      route: '/v4/loadbalancers/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner), payload: { client_conn_throttle: 3 } }),
      scopes: ['nodebalancers:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/loadbalancers/{id}',
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      scopes: ['nodebalancers:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
  ])
})
