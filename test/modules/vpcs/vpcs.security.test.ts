import { after, before, describe } from 'node:test'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { createVpc } from './vpc-fixtures.ts'

describe('VPC, subnet and VPC IP routes: security', () => {
  let t: TestApp
  before(async () => {
    t = await buildTestApp()
  })
  after(() => t.close())

  const withVpc = async (tt: TestApp, owner: Parameters<typeof createVpc>[1]) =>
    createVpc(tt, owner, { subnets: [{ label: 'sub', ipv4: '10.0.0.0/24' }] })

  securitySuite(
    () => t,
    [
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
        prepare: async (tt, owner) => ({ url: `/v4/vpcs/${(await withVpc(tt, owner)).id}` }),
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
        prepare: async (tt, owner) => ({
          url: `/v4/vpcs/${(await withVpc(tt, owner)).id}`,
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
        prepare: async (tt, owner) => ({ url: `/v4/vpcs/${(await withVpc(tt, owner)).id}` }),
        scopes: ['vpc:read_write'],
        success: 200,
        restricted: 403,
        crossAccount: true,
      },
      {
        method: 'GET',
        route: '/v4/vpcs/{id}/subnets',
        prepare: async (tt, owner) => ({ url: `/v4/vpcs/${(await withVpc(tt, owner)).id}/subnets` }),
        scopes: [],
        success: 200,
        restricted: 403,
        crossAccount: true,
      },
      {
        method: 'GET',
        route: '/v4/vpcs/{id}/subnets/{subnetId}',
        prepare: async (tt, owner) => {
          const vpc = await withVpc(tt, owner)
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
        prepare: async (tt, owner) => ({
          url: `/v4/vpcs/${(await withVpc(tt, owner)).id}/subnets`,
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
        prepare: async (tt, owner) => {
          const vpc = await withVpc(tt, owner)
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
        prepare: async (tt, owner) => {
          const vpc = await withVpc(tt, owner)
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
        prepare: async (tt, owner) => ({ url: `/v4/vpcs/${(await withVpc(tt, owner)).id}/ips` }),
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
    ],
  )
})
