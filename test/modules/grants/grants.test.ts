import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc } from '../../helpers/api-fixtures.ts'
import { type TestApp, useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'

const ENTITY_KEYS = [
  'database',
  'domain',
  'image',
  'compute',
  'monitoring',
  'loadbalancer',
  'script',
  'volume',
  'vpc',
]
const GLOBAL = {
  account_access: null,
  add_databases: false,
  add_domains: false,
  add_firewalls: false,
  add_images: false,
  add_computes: false,
  add_monitoring: false,
  add_loadbalancers: false,
  add_scripts: false,
  add_volumes: false,
  add_vpcs: false,
  cancel_account: false,
  monitoring_subscription: false,
}

describe('account user grants', () => {
  const api = useTestApp()

  it("shows a new restricted user's empty grants document", async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const res = await api.request({
      method: 'GET',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(Object.keys(res.body), [...ENTITY_KEYS, 'global'])
    assert.deepEqual(res.body.global, GLOBAL)
  })

  it('updates global grants and keeps what the request leaves out', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const url = `/v4/account/users/${member.user.username}/grants`
    const first = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { global: { add_vpcs: true, account_access: 'read_only' } },
    })
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.deepEqual(first.body.global, { ...GLOBAL, add_vpcs: true, account_access: 'read_only' })
    const second = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { global: { add_images: true } },
    })
    assert.deepEqual(second.body.global, {
      ...GLOBAL,
      add_vpcs: true,
      add_images: true,
      account_access: 'read_only',
    })
  })

  it('refuses grants on entities that are not in the account', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
      payload: { database: [{ id: 1, permissions: 'read_only' }], volume: [{ id: 7, permissions: null }] },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'Entity not found', field: 'database[0].id' },
        { reason: 'Entity not found', field: 'volume[0].id' },
      ],
    })
  })

  it('refuses grants for unrestricted users', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${owner.user.username}/grants`,
      headers: owner.headers,
      payload: { global: { add_vpcs: true } },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Grants are not available for unrestricted users' }] })
  })

  it('lists every entity of the account with the permission held', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createVpc(api, owner, { label: 'granted-vpc' })
    const other = await createVpc(api, owner, { label: 'other-vpc' })
    const instance = await createInstance(api, owner, { label: 'web-1' })
    await createVpc(api, await createAccount(api), { label: 'strangers-vpc' })
    await grantEntity(api, member, 'vpc', granted.id, 'read_only')
    const res = await api.request({
      method: 'GET',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body.vpc, [
      { id: granted.id, label: 'granted-vpc', permissions: 'read_only' },
      { id: other.id, label: 'other-vpc', permissions: null },
    ])
    assert.deepEqual(res.body.compute, [{ id: instance.id, label: 'web-1', permissions: null }])
    assert.deepEqual(res.body.image, [], 'public images are not the account’s')
  })

  const restrictedMember = async (api: TestApp, owner: Parameters<typeof createUser>[1]) =>
    createUser(api, owner)
  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/account/users/{username}/grants',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (api, owner) => ({
        url: `/v4/account/users/${(await restrictedMember(api, owner)).user.username}/grants`,
      }),
    },
    {
      method: 'PUT',
      route: '/v4/account/users/{username}/grants',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (api, owner) => ({
        url: `/v4/account/users/${(await restrictedMember(api, owner)).user.username}/grants`,
        payload: { global: { add_vpcs: true } },
      }),
    },
  ])
})
