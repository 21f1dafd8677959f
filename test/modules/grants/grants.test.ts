import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { GRANT_ENTITY_TABLES } from '../../../src/modules/grants/grant-entities.ts'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { createAccount, createUser } from '../../helpers/factories.ts'
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
  let t: TestApp
  before(async () => {
    t = await buildTestApp()
  })
  after(() => t.close())

  it("shows a new restricted user's empty grants document", async () => {
    const owner = await createAccount(t)
    const member = await createUser(t, owner)
    const res = await t.request({
      method: 'GET',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(Object.keys(res.body), [...ENTITY_KEYS, 'global'])
    assert.deepEqual(res.body.global, GLOBAL)
  })

  it('updates global grants and keeps what the request leaves out', async () => {
    const owner = await createAccount(t)
    const member = await createUser(t, owner)
    const url = `/v4/account/users/${member.user.username}/grants`
    const first = await t.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { global: { add_vpcs: true, account_access: 'read_only' } },
    })
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.deepEqual(first.body.global, { ...GLOBAL, add_vpcs: true, account_access: 'read_only' })
    const second = await t.request({
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
    const owner = await createAccount(t)
    const member = await createUser(t, owner)
    const res = await t.request({
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
    const owner = await createAccount(t)
    const res = await t.request({
      method: 'PUT',
      url: `/v4/account/users/${owner.user.username}/grants`,
      headers: owner.headers,
      payload: { global: { add_vpcs: true } },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Grants are not available for unrestricted users' }] })
  })

  it('lists every entity of the account with the permission held, when the area registers its table', async (ctx) => {
    const registered = Object.keys(GRANT_ENTITY_TABLES)
    if (registered.length === 0) return ctx.skip('no entity area registered yet')
  })

  const restrictedMember = async (tt: TestApp, owner: Parameters<typeof createUser>[1]) =>
    createUser(tt, owner)
  securitySuite(
    () => t,
    [
      {
        method: 'GET',
        route: '/v4/account/users/{username}/grants',
        scopes: ['account:read_only'],
        success: 200,
        restricted: 403,
        crossAccount: true,
        prepare: async (tt, owner) => ({
          url: `/v4/account/users/${(await restrictedMember(tt, owner)).user.username}/grants`,
        }),
      },
      {
        method: 'PUT',
        route: '/v4/account/users/{username}/grants',
        scopes: ['account:read_write'],
        success: 200,
        restricted: 403,
        crossAccount: true,
        prepare: async (tt, owner) => ({
          url: `/v4/account/users/${(await restrictedMember(tt, owner)).user.username}/grants`,
          payload: { global: { add_vpcs: true } },
        }),
      },
    ],
  )
})
