import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { updateGlobalGrants } from '../../../src/modules/grants/grants.repository.ts'
import { createInstance } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'

describe('account and transfer', () => {
  const api = useTestApp()

  const get = (who: TestUser, url: string) => api.request({ method: 'GET', url, headers: who.headers })
  const put = (who: TestUser, payload: object) =>
    api.request({ method: 'PUT', url: '/v4/account', headers: who.headers, payload })

  it('shows the account with empty contact fields, its creation as active_since and its euuid', async () => {
    const owner = await createAccount(api)
    const res = await get(owner, '/v4/account')
    assert.equal(res.status, 200)
    const account = res.body
    assert.deepEqual(Object.keys(account), [
      'company',
      'email',
      'first_name',
      'last_name',
      'address_1',
      'address_2',
      'city',
      'state',
      'zip',
      'country',
      'phone',
      'balance',
      'tax_id',
      'credit_card',
      'balance_uninvoiced',
      'active_since',
      'capabilities',
      'active_promotions',
      'euuid',
    ])
    assert.equal(account.company, '')
    assert.equal(account.balance, 0)
    assert.deepEqual(account.credit_card, { last_four: null, expiry: null })
    assert.match(account.active_since, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/)
    assert.match(account.euuid, /^[0-9A-F-]{36}$/)
    assert.ok(account.capabilities.includes('NodeBalancers'))
  })

  it('changes the contact fields sent and keeps the others, with an account_update event', async () => {
    const owner = await createAccount(api)
    const first = await put(owner, { company: 'Example Ltd', city: 'Lyon', country: 'fr' })
    assert.equal(first.status, 200, JSON.stringify(first.body))
    assert.equal(first.body.company, 'Example Ltd')
    assert.equal(first.body.country, 'FR')
    const second = await put(owner, { email: 'billing@example.com' })
    assert.equal(second.body.company, 'Example Ltd')
    assert.equal(second.body.email, 'billing@example.com')
    assert.deepEqual((await get(owner, '/v4/account')).body, second.body)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'account_update' }) },
    })
    assert.equal(events.body.results, 2)
    assert.deepEqual(events.body.data[0].entity, {
      label: null,
      id: null,
      type: 'account',
      url: '/v4/account',
    })
  })

  it('changes the contact fields alone: other keys, real columns or not, are ignored', async () => {
    const owner = await createAccount(api)
    const before = (await get(owner, '/v4/account')).body
    for (const extra of [
      { unexpected_field: 1 },
      { created: 'not a time' },
      { id: 999_999_999 },
      { uuid: 'x' },
    ]) {
      const res = await put(owner, { company: 'Only This', ...extra })
      assert.equal(res.status, 200, `${JSON.stringify(extra)}: ${JSON.stringify(res.body)}`)
      assert.deepEqual(res.body, { ...before, company: 'Only This' })
    }
    assert.deepEqual((await get(owner, '/v4/account')).body, { ...before, company: 'Only This' })
  })

  it('refuses each contact rule with its field', async () => {
    const owner = await createAccount(api)
    const cases: Array<[object, string]> = [
      [{ email: 'not-an-address' }, 'email'],
      [{ email: `${'a'.repeat(120)}@example.com` }, 'email'],
      [{ country: 'FRA' }, 'country'],
      [{ city: 'x'.repeat(25) }, 'city'],
      [{ zip: '1'.repeat(17) }, 'zip'],
      [{ company: 'c'.repeat(129) }, 'company'],
      [{ first_name: 'f'.repeat(51) }, 'first_name'],
      [{ phone: '1'.repeat(33) }, 'phone'],
      [{ tax_id: 't'.repeat(101) }, 'tax_id'],
    ]
    for (const [payload, field] of cases) {
      const res = await put(owner, payload)
      assert.equal(res.status, 400, JSON.stringify(payload))
      assert.deepEqual(
        res.body.errors.map((e: { field: string }) => e.field),
        [field],
      )
    }
    assert.equal((await get(owner, '/v4/account')).body.email, '')
  })

  it('pools the transfer quota of the account’s instances by region', async () => {
    const owner = await createAccount(api)
    const empty = await get(owner, '/v4/account/transfer')
    assert.deepEqual(empty.body, { billable: 0, quota: 0, used: 0, region_transfers: [] })
    await createInstance(api, owner, { type: 'g6-nanode-1', region: 'us-iad' })
    await createInstance(api, owner, { type: 'g6-standard-1', region: 'us-iad' })
    const other = await createInstance(api, owner, { type: 'g6-nanode-1', region: 'us-ord' })
    const types = await api.request({ method: 'GET', url: '/v4/compute/types?page_size=500' })
    const transferOf = (id: string) =>
      types.body.data.find((t: { id: string }) => t.id === id).transfer as number
    const nanode = transferOf('g6-nanode-1')
    const standard = transferOf('g6-standard-1')
    const res = await get(owner, '/v4/account/transfer')
    assert.deepEqual(res.body, {
      billable: 0,
      quota: 2 * nanode + standard,
      used: 0,
      region_transfers: [
        { id: 'us-iad', billable: 0, quota: nanode + standard, used: 0 },
        { id: 'us-ord', billable: 0, quota: nanode, used: 0 },
      ],
    })
    await api.request({ method: 'DELETE', url: `/v4/compute/instances/${other.id}`, headers: owner.headers })
    assert.equal((await get(owner, '/v4/account/transfer')).body.quota, nanode + standard)
  })

  it('lets a restricted user with account_access read, and change only with read_write', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    await updateGlobalGrants(api.db, member.user.id, { account_access: 'read_only' })
    assert.equal((await get(member, '/v4/account')).status, 200)
    assert.equal((await get(member, '/v4/account/transfer')).status, 200)
    assert.equal((await put(member, { company: 'x' })).status, 403)
    await updateGlobalGrants(api.db, member.user.id, { account_access: 'read_write' })
    assert.equal((await put(member, { company: 'x' })).status, 200)
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/account',
      prepare: async () => ({ url: '/v4/account' }),
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'PUT',
      route: '/v4/account',
      prepare: async () => ({ url: '/v4/account', payload: { company: 'Changed' } }),
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'GET',
      route: '/v4/account/transfer',
      prepare: async () => ({ url: '/v4/account/transfer' }),
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
    },
  ])
})
