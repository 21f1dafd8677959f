import { describe } from 'node:test'
import { createVpc } from '../../helpers/api-fixtures.ts'
import { type TestApp, useTestApp } from '../../helpers/app.ts'
import { securitySuite } from '../../helpers/security-suite.ts'

describe('VPC, subnet and VPC IP routes: security', () => {
  const api = useTestApp()

  const withVpc = async (api: TestApp, owner: Parameters<typeof createVpc>[1]) =>
    createVpc(api, owner, { subnets: [{ label: 'sub', ipv4: '10.0.0.0/24' }] })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/vpcs',
      prepare: async () => ({ url: '/v4/vpcs' }),
      scopes: [],
      success: 200,
      restricted: 200,
    },
    {
      method: 'GET',
      route: '/v4/vpcs/{id}',
      prepare: async (api, owner) => ({ url: `/v4/vpcs/${(await withVpc(api, owner)).id}` }),
      scopes: [],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/vpcs',
      prepare: async () => ({
        url: '/v4/vpcs',
        payload: { label: 'new-vpc', region: 'us-iad', subnets: [{ label: 's', ipv4: '10.0.0.0/24' }] },
      }),
      scopes: ['vpc:read_write'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'PUT',
      route: '/v4/vpcs/{id}',
      prepare: async (api, owner) => ({
        url: `/v4/vpcs/${(await withVpc(api, owner)).id}`,
        payload: { description: 'changed' },
      }),
      scopes: ['vpc:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/vpcs/{id}',
      prepare: async (api, owner) => ({ url: `/v4/vpcs/${(await withVpc(api, owner)).id}` }),
      scopes: ['vpc:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'GET',
      route: '/v4/vpcs/{id}/subnets',
      prepare: async (api, owner) => ({ url: `/v4/vpcs/${(await withVpc(api, owner)).id}/subnets` }),
      scopes: [],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'GET',
      route: '/v4/vpcs/{id}/subnets/{subnetId}',
      prepare: async (api, owner) => {
        const vpc = await withVpc(api, owner)
        return { url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}` }
      },
      scopes: [],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/vpcs/{id}/subnets',
      prepare: async (api, owner) => ({
        url: `/v4/vpcs/${(await withVpc(api, owner)).id}/subnets`,
        payload: { label: 'more', ipv4: '10.0.1.0/24' },
      }),
      scopes: ['vpc:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'PUT',
      route: '/v4/vpcs/{id}/subnets/{subnetId}',
      prepare: async (api, owner) => {
        const vpc = await withVpc(api, owner)
        return { url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`, payload: { label: 'renamed' } }
      },
      scopes: ['vpc:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/vpcs/{id}/subnets/{subnetId}',
      prepare: async (api, owner) => {
        const vpc = await withVpc(api, owner)
        return { url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}` }
      },
      scopes: ['vpc:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'GET',
      route: '/v4/vpcs/{id}/ips',
      prepare: async (api, owner) => ({ url: `/v4/vpcs/${(await withVpc(api, owner)).id}/ips` }),
      scopes: ['ips:read_only'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'GET',
      route: '/v4/networking/vpcs/ips',
      prepare: async () => ({ url: '/v4/networking/vpcs/ips' }),
      scopes: ['ips:read_only'],
      success: 200,
      restricted: 200,
    },
    {
      method: 'GET',
      route: '/v4/vpcs/ips',
      prepare: async () => ({ url: '/v4/vpcs/ips' }),
      scopes: ['ips:read_only'],
      success: 200,
      restricted: 200,
    },
  ])
})
