import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { Config } from '../../../../src/modules/compute/configs/configs.schemas.ts'
import type { Instance } from '../../../../src/modules/compute/instances/instances.schemas.ts'
import type { CreateSubnetBody } from '../../../../src/modules/vpcs/subnets/subnets.schemas.ts'
import { createInstance, createVpc, firstConfig, type VpcWith } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { defined } from '../../../helpers/defined.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../../../helpers/factories.ts'

const IP_KEYS = [
  'address',
  'address_range',
  'vpc_id',
  'subnet_id',
  'region',
  'linode_id',
  'config_id',
  'interface_id',
  'active',
  'nat_1_1',
  'gateway',
  'prefix',
  'subnet_mask',
]

describe('VPC IP addresses', () => {
  const api = useTestApp()
  let owner: TestUser
  let vpc: VpcWith<[CreateSubnetBody]>
  let other: VpcWith<[CreateSubnetBody]>
  let web: Instance
  let db: Instance
  let webConfig: Config
  let spare: Config

  before(async () => {
    owner = await createAccount(api)
    vpc = await createVpc(api, owner, { subnets: [{ label: 'front', ipv4: '192.168.0.0/25' }] })
    other = await createVpc(api, owner, {
      region: 'us-ord',
      subnets: [{ label: 'back', ipv4: '10.0.0.0/24' }],
    })
    web = await createInstance(api, owner, {
      interfaces: [
        { purpose: 'public' },
        {
          purpose: 'vpc',
          subnet_id: vpc.subnets[0].id,
          ipv4: { nat_1_1: 'any' },
          ip_ranges: ['192.168.0.64/28'],
        },
      ],
    })
    webConfig = await firstConfig(api, owner, web.id)
    // A second profile of the same instance repeats its address: both are listed.
    const res = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${web.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'spare',
        devices: {},
        interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    spare = res.body
    db = await createInstance(api, owner, {
      region: 'us-ord',
      booted: false,
      interfaces: [{ purpose: 'vpc', subnet_id: other.subnets[0].id, ipv4: { vpc: '10.0.0.20' } }],
    })
  })

  const list = (url: string, filter?: object, headers = owner.headers) =>
    api.request({
      method: 'GET',
      url,
      headers: { ...headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })

  it('lists every VPC address of the account with the 13 fields in the recorded order', async () => {
    const res = await list('/v4/networking/vpcs/ips')
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'ips:read_only')
    assert.equal(res.body.results, 4)
    for (const record of res.body.data) assert.deepEqual(Object.keys(record), IP_KEYS)
    const [address, range, duplicate, stopped] = res.body.data
    assert.deepEqual(address, {
      address: '192.168.0.2',
      address_range: null,
      vpc_id: vpc.id,
      subnet_id: vpc.subnets[0].id,
      region: 'us-iad',
      linode_id: web.id,
      config_id: webConfig.id,
      interface_id: defined(webConfig.interfaces[1]).id,
      active: true,
      nat_1_1: web.ipv4[0],
      gateway: '192.168.0.1',
      prefix: 25,
      subnet_mask: '255.255.255.128',
    })
    assert.deepEqual(range, { ...address, address: null, address_range: '192.168.0.64/28', nat_1_1: null })
    assert.deepEqual(duplicate, {
      ...address,
      config_id: spare.id,
      interface_id: defined(spare.interfaces[0]).id,
      active: false,
      nat_1_1: null,
    })
    assert.equal(stopped.address, '10.0.0.20')
    assert.equal(stopped.region, 'us-ord')
    assert.equal(stopped.gateway, '10.0.0.1')
    assert.equal(stopped.subnet_mask, '255.255.255.0')
    assert.equal(stopped.active, false)
    const alias = await list('/v4/vpcs/ips')
    assert.deepEqual(alias.body, res.body)
    const beta = await list('/v4beta/vpcs/ips')
    assert.deepEqual(beta.body, res.body)
  })

  it('lists one VPC’s addresses', async () => {
    const res = await list(`/v4/vpcs/${other.id}/ips`)
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((r: { address: string }) => r.address),
      ['10.0.0.20'],
    )
    const missing = await list('/v4/vpcs/999999/ips')
    assert.equal(missing.status, 404)
  })

  it('filters on active, config_id, linode_id, region and vpc_id, and nothing else', async () => {
    const active = await list('/v4/vpcs/ips', { active: true })
    assert.deepEqual(
      active.body.data.map((r: { address: string | null }) => r.address),
      ['192.168.0.2', null],
    )
    const byConfig = await list('/v4/vpcs/ips', { config_id: spare.id })
    assert.equal(byConfig.body.results, 1)
    const byInstance = await list('/v4/vpcs/ips', { linode_id: db.id })
    assert.equal(byInstance.body.results, 1)
    const byRegion = await list('/v4/vpcs/ips', { region: 'us-iad' })
    assert.equal(byRegion.body.results, 3)
    const byVpc = await list('/v4/vpcs/ips', { vpc_id: other.id, '+order_by': 'linode_id', '+order': 'desc' })
    assert.equal(byVpc.body.results, 1)
    const combined = await list(`/v4/vpcs/${vpc.id}/ips`, { '+or': [{ active: false }, { config_id: 0 }] })
    assert.equal(combined.body.results, 1)
    const bad = await list('/v4/vpcs/ips', { address: '192.168.0.2' })
    assert.deepEqual(bad.body, { errors: [{ reason: 'Cannot filter on address', field: 'X-Filter' }] })
  })

  it('pages the records in SQL', async () => {
    const first = await api.request({
      method: 'GET',
      url: '/v4/vpcs/ips?page_size=25',
      headers: owner.headers,
    })
    assert.equal(first.body.pages, 1)
    const past = await api.request({ method: 'GET', url: '/v4/vpcs/ips?page=9', headers: owner.headers })
    assert.equal(past.body.page, 1)
    assert.equal(past.body.data.length, 4)
  })

  it('shows a restricted user only the addresses of VPCs they hold a grant on', async () => {
    const member = await createUser(api, owner)
    const none = await list('/v4/vpcs/ips', undefined, member.headers)
    assert.equal(none.body.results, 0)
    await grantEntity(api, member, 'vpc', other.id, 'read_only')
    const some = await list('/v4/vpcs/ips', undefined, member.headers)
    assert.deepEqual(
      some.body.data.map((r: { vpc_id: number }) => r.vpc_id),
      [other.id],
    )
    const forbidden = await list(`/v4/vpcs/${vpc.id}/ips`, undefined, member.headers)
    assert.equal(forbidden.status, 403)
  })

  it('shows nothing of other accounts', async () => {
    const stranger = await createAccount(api)
    const res = await list('/v4/vpcs/ips', undefined, stranger.headers)
    assert.deepEqual(res.body, { data: [], page: 1, pages: 1, results: 0 })
    const theirs = await list(`/v4/vpcs/${vpc.id}/ips`, undefined, stranger.headers)
    assert.equal(theirs.status, 404)
  })
})
