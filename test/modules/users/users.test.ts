import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, uniqueName } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'

describe('account users', () => {
  const api = useTestApp()

  it('creates, lists, views, updates and deletes users', async () => {
    const owner = await createAccount(api)
    const username = uniqueName('dev')
    const created = await api.request({
      method: 'POST',
      url: '/v4/account/users',
      headers: owner.headers,
      payload: { username, email: `${username}@example.com`, restricted: true },
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    assert.deepEqual(created.body, {
      username,
      email: `${username}@example.com`,
      restricted: true,
      ssh_keys: [],
      tfa_enabled: false,
      verified_phone_number: null,
      password_created: null,
      last_login: null,
    })

    const list = await api.request({ method: 'GET', url: '/v4/account/users', headers: owner.headers })
    assert.equal(list.status, 200)
    assert.deepEqual(
      list.body.data.map((u: { username: string }) => u.username),
      [owner.user.username, username],
    )
    assert.equal(list.body.results, 2)

    const view = await api.request({
      method: 'GET',
      url: `/v4/account/users/${username}`,
      headers: owner.headers,
    })
    assert.equal(view.status, 200)
    assert.equal(view.body.restricted, true)

    const renamed = uniqueName('dev')
    const updated = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${username}`,
      headers: owner.headers,
      payload: { username: renamed, email: 'new@example.com', restricted: false },
    })
    assert.equal(updated.status, 200, JSON.stringify(updated.body))
    assert.equal(updated.body.username, renamed)
    assert.equal(updated.body.email, 'new@example.com')
    assert.equal(updated.body.restricted, false)
    const grants = await api.request({
      method: 'GET',
      url: `/v4/account/users/${renamed}/grants`,
      headers: owner.headers,
    })
    assert.equal(grants.status, 204, 'an unrestricted user has no grants document')

    const deleted = await api.request({
      method: 'DELETE',
      url: `/v4/account/users/${renamed}`,
      headers: owner.headers,
    })
    assert.equal(deleted.status, 200)
    assert.deepEqual(deleted.body, {})
    const gone = await api.request({
      method: 'GET',
      url: `/v4/account/users/${renamed}`,
      headers: owner.headers,
    })
    assert.equal(gone.status, 404)

    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ 'entity.type': 'user' }) },
    })
    assert.deepEqual(
      events.body.data.map((e: { action: string }) => e.action),
      ['user_delete', 'user_update', 'user_create'],
    )
    assert.equal(events.body.data[2].entity.label, username)
    assert.equal(events.body.data[2].username, owner.user.username)
  })

  it('refuses X-Filter fields (none is filterable) and a malformed filter, like every list', async () => {
    const owner = await createAccount(api)
    const list = (filter: string) =>
      api.request({
        method: 'GET',
        url: '/v4/account/users',
        headers: { ...owner.headers, 'x-filter': filter },
      })
    const named = await list(JSON.stringify({ username: owner.user.username }))
    assert.equal(named.status, 400)
    assert.deepEqual(named.body, { errors: [{ reason: 'Cannot filter on username', field: 'X-Filter' }] })
    assert.equal((await list('{not json')).status, 400)
    const all = await list('{}')
    assert.equal(all.status, 200)
    assert.equal(all.body.results, 1)
  })

  it("deleting a user revokes that user's tokens at once", async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/profile', headers: member.headers })).status,
      200,
    )
    await api.request({
      method: 'DELETE',
      url: `/v4/account/users/${member.user.username}`,
      headers: owner.headers,
    })
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/profile', headers: member.headers })).status,
      401,
    )
  })

  it('refuses bad input, one error per field', async () => {
    const owner = await createAccount(api)
    const cases: Array<[unknown, string, string]> = [
      [
        { username: 'ab', email: 'a@example.com', restricted: true },
        'username',
        'username must be 3-32 characters',
      ],
      [
        { username: 'a'.repeat(33), email: 'a@example.com', restricted: true },
        'username',
        'username must be 3-32 characters',
      ],
      [
        { username: 'bad name', email: 'a@example.com', restricted: true },
        'username',
        'Username must only use ASCII letters, numbers, dashes and underscores, begin and end with a letter or number, and not repeat dashes or underscores',
      ],
      [
        { username: 'double--dash', email: 'a@example.com', restricted: true },
        'username',
        'Username must only use ASCII letters, numbers, dashes and underscores, begin and end with a letter or number, and not repeat dashes or underscores',
      ],
      [
        { username: 'valid-user', email: 'not-an-email', restricted: true },
        'email',
        'email must be a valid email',
      ],
      [{ username: 'valid-user', email: 'a@example.com' }, 'restricted', 'restricted is required'],
    ]
    for (const [payload, field, reason] of cases) {
      const res = await api.request({
        method: 'POST',
        url: '/v4/account/users',
        headers: owner.headers,
        payload: payload as object,
      })
      assert.equal(res.status, 400, JSON.stringify(payload))
      assert.deepEqual(res.body, { errors: [{ field, reason }] }, JSON.stringify(payload))
    }
  })

  it('usernames are unique across accounts', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const res = await api.request({
      method: 'POST',
      url: '/v4/account/users',
      headers: owner.headers,
      payload: { username: other.user.username, email: 'x@example.com', restricted: false },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ field: 'username', reason: 'Username taken' }] })
    const rename = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${owner.user.username}`,
      headers: owner.headers,
      payload: { username: other.user.username },
    })
    assert.deepEqual(rename.body, { errors: [{ field: 'username', reason: 'Username taken' }] })
  })

  it('keeps one unrestricted user and refuses deleting yourself', async () => {
    const owner = await createAccount(api)
    const self = await api.request({
      method: 'DELETE',
      url: `/v4/account/users/${owner.user.username}`,
      headers: owner.headers,
    })
    assert.equal(self.status, 400)
    assert.deepEqual(self.body, {
      errors: [{ field: 'username', reason: 'You cannot delete your own user' }],
    })
    const restrict = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${owner.user.username}`,
      headers: owner.headers,
      payload: { restricted: true },
    })
    assert.equal(restrict.status, 400)
    assert.deepEqual(restrict.body, {
      errors: [{ field: 'restricted', reason: 'The account must keep at least one unrestricted user' }],
    })
  })

  it('an update that changes nothing returns the user unchanged', async () => {
    const owner = await createAccount(api)
    for (const payload of [{}, { unknown_field: 1 }]) {
      const res = await api.request({
        method: 'PUT',
        url: `/v4/account/users/${owner.user.username}`,
        headers: owner.headers,
        payload,
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      assert.equal(res.body.username, owner.user.username)
    }
  })

  it('two administrators deleting each other at once never leave the account without one', async () => {
    const owner = await createAccount(api)
    const other = await createUser(api, owner, { restricted: false })
    const [a, b] = await Promise.all([
      api.request({
        method: 'DELETE',
        url: `/v4/account/users/${other.user.username}`,
        headers: owner.headers,
      }),
      api.request({
        method: 'DELETE',
        url: `/v4/account/users/${owner.user.username}`,
        headers: other.headers,
      }),
    ])
    assert.equal([a.status, b.status].filter((s) => s === 200).length, 1, `${a.status} ${b.status}`)
    const left = await api.db
      .selectFrom('users')
      .select('id')
      .where('account_id', '=', owner.accountId)
      .where('restricted', '=', false)
      .execute()
    assert.equal(left.length, 1)
  })

  it("another account's users are not found", async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await api.request({
        method,
        url: `/v4/account/users/${stranger.user.username}`,
        headers: owner.headers,
        ...(method === 'PUT' && { payload: { email: 'x@example.com' } }),
      })
      assert.equal(res.status, 404, method)
    }
    const list = await api.request({ method: 'GET', url: '/v4/account/users', headers: owner.headers })
    assert.equal(list.body.results, 1)
  })

  const member = () => ({ username: uniqueName('m'), email: 'm@example.com', restricted: true })
  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/account/users',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
      prepare: async () => ({ url: '/v4/account/users' }),
    },
    {
      method: 'POST',
      route: '/v4/account/users',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      prepare: async () => ({ url: '/v4/account/users', payload: member() }),
    },
    {
      method: 'GET',
      route: '/v4/account/users/{username}',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (_t, owner) => ({ url: `/v4/account/users/${owner.user.username}` }),
    },
    {
      method: 'PUT',
      route: '/v4/account/users/{username}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (_t, owner) => ({
        url: `/v4/account/users/${owner.user.username}`,
        payload: { email: 'n@example.com' },
      }),
    },
    {
      method: 'DELETE',
      route: '/v4/account/users/{username}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
      prepare: async (api, owner) => {
        const victim = await createUser(api, owner)
        return { url: `/v4/account/users/${victim.user.username}` }
      },
    },
  ])
})
