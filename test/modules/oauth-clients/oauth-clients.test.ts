import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { hashTokenSecret } from '../../../src/modules/auth/token-secret.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { createOauthToken } from '../profile/profile-helpers.ts'
import { createOAuthClient } from './oauth-client-fixtures.ts'

const KEYS = ['id', 'label', 'public', 'redirect_uri', 'secret', 'status', 'thumbnail_url']

describe('account OAuth clients', () => {
  const api = useTestApp()

  it('creates a client whose secret is shown once and stored only hashed', async () => {
    const owner = await createAccount(api)
    const created = await createOAuthClient(api, owner, { label: 'My App', public: true })
    assert.deepEqual(Object.keys(created), KEYS)
    assert.match(created.id, /^[0-9a-f]{20}$/)
    assert.match(created.secret, /^[0-9a-f]{64}$/)
    assert.equal(created.public, true)
    assert.equal(created.status, 'active')
    assert.equal(created.thumbnail_url, null)
    const view = await api.request({
      method: 'GET',
      url: `/v4/account/oauth-clients/${created.id}`,
      headers: owner.headers,
    })
    assert.deepEqual(view.body, { ...created, secret: '<REDACTED>' })
    const row = await api.db
      .selectFrom('oauth_clients')
      .select('secret_hash')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow()
    assert.equal(row.secret_hash, hashTokenSecret(created.secret))
    assert.notEqual(row.secret_hash, created.secret)
  })

  it('lists only the account’s clients, filterable by label and public', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    await createOAuthClient(api, owner, { label: 'alpha', public: true })
    await createOAuthClient(api, owner, { label: 'beta' })
    await createOAuthClient(api, other, { label: 'gamma' })
    const all = await api.request({ method: 'GET', url: '/v4/account/oauth-clients', headers: owner.headers })
    assert.equal(all.status, 200)
    // Ordered by creation, then id: clients made in the same second come in either order.
    assert.deepEqual(all.body.data.map((c: { label: string }) => c.label).sort(), ['alpha', 'beta'])
    assert.ok(all.body.data.every((c: { secret: string }) => c.secret === '<REDACTED>'))
    const filtered = await api.request({
      method: 'GET',
      url: '/v4/account/oauth-clients',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ public: true }) },
    })
    assert.deepEqual(
      filtered.body.data.map((c: { label: string }) => c.label),
      ['alpha'],
    )
  })

  it('updates label and redirect URI, refusing a redirect URI that is not an absolute http(s) URL', async () => {
    const owner = await createAccount(api)
    const created = await createOAuthClient(api, owner)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/account/oauth-clients/${created.id}`,
      headers: owner.headers,
      payload: { label: 'Renamed', redirect_uri: 'http://localhost:8080/cb' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'Renamed')
    assert.equal(res.body.redirect_uri, 'http://localhost:8080/cb')
    assert.equal(res.body.secret, '<REDACTED>')
    // A body that names nothing it can change leaves the client as it is.
    for (const payload of [{}, { size: 1 }]) {
      const unchanged = await api.request({
        method: 'PUT',
        url: `/v4/account/oauth-clients/${created.id}`,
        headers: owner.headers,
        payload,
      })
      assert.equal(unchanged.status, 200, JSON.stringify(unchanged.body))
      assert.deepEqual(unchanged.body, res.body)
    }
    for (const bad of ['not a url', 'ftp://x.example/cb', 'https://app.example.com/cb#frag', '/relative']) {
      const refused = await api.request({
        method: 'PUT',
        url: `/v4/account/oauth-clients/${created.id}`,
        headers: owner.headers,
        payload: { redirect_uri: bad },
      })
      assert.equal(refused.status, 400, bad)
      assert.equal(refused.body.errors[0].field, 'redirect_uri')
    }
    const empty = await api.request({
      method: 'POST',
      url: '/v4/account/oauth-clients',
      headers: owner.headers,
      payload: { label: '', redirect_uri: 'https://x.example/cb' },
    })
    assert.equal(empty.status, 400)
  })

  it('resets the secret: the new one is shown once, and differs', async () => {
    const owner = await createAccount(api)
    const created = await createOAuthClient(api, owner)
    const res = await api.request({
      method: 'POST',
      url: `/v4/account/oauth-clients/${created.id}/reset-secret`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.match(res.body.secret, /^[0-9a-f]{64}$/)
    assert.notEqual(res.body.secret, created.secret)
  })

  it('deleting a client ends the tokens users gave it', async () => {
    const owner = await createAccount(api)
    const created = await createOAuthClient(api, owner)
    const app = await createOauthToken(api, owner, { clientId: created.id })
    const before = await api.request({ method: 'GET', url: '/v4/profile', headers: app.headers })
    assert.equal(before.status, 200)
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/account/oauth-clients/${created.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    const after = await api.request({ method: 'GET', url: '/v4/profile', headers: app.headers })
    assert.equal(after.status, 401)
    const gone = await api.request({
      method: 'GET',
      url: `/v4/account/oauth-clients/${created.id}`,
      headers: owner.headers,
    })
    assert.equal(gone.status, 404)
  })

  it('records oauth_client_* events', async () => {
    const owner = await createAccount(api)
    const created = await createOAuthClient(api, owner, { label: 'Evented' })
    const url = `/v4/account/oauth-clients/${created.id}`
    await api.request({ method: 'PUT', url, headers: owner.headers, payload: { label: 'Evented 2' } })
    await api.request({ method: 'POST', url: `${url}/reset-secret`, headers: owner.headers })
    await api.request({ method: 'DELETE', url, headers: owner.headers })
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const actions = events.body.data.map((e: { action: string }) => e.action).sort()
    assert.deepEqual(actions, [
      'oauth_client_create',
      'oauth_client_delete',
      'oauth_client_secret_reset',
      'oauth_client_update',
    ])
    const created_ = events.body.data.find((e: { action: string }) => e.action === 'oauth_client_create')
    assert.deepEqual(created_.entity, {
      id: null,
      label: 'Evented',
      type: 'oauth_client',
      url: `/v4/account/oauth-clients/${created.id}`,
    })
  })

  it('an unknown or malformed client id is 404', async () => {
    const owner = await createAccount(api)
    for (const id of ['0123456789abcdef0123', 'nope']) {
      const res = await api.request({
        method: 'GET',
        url: `/v4/account/oauth-clients/${id}`,
        headers: owner.headers,
      })
      assert.equal(res.status, 404)
    }
  })

  it('restricted users cannot list clients (403)', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    const res = await api.request({
      method: 'GET',
      url: '/v4/account/oauth-clients',
      headers: member.headers,
    })
    assert.equal(res.status, 403)
  })

  const withClient = async (
    api: Parameters<typeof createOAuthClient>[0],
    owner: Parameters<typeof createOAuthClient>[1],
  ) => `/v4/account/oauth-clients/${(await createOAuthClient(api, owner)).id}`

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/account/oauth-clients',
      prepare: async () => ({ url: '/v4/account/oauth-clients' }),
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'POST',
      route: '/v4/account/oauth-clients',
      prepare: async () => ({
        url: '/v4/account/oauth-clients',
        payload: { label: 'x', redirect_uri: 'https://x.example/cb' },
      }),
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'GET',
      route: '/v4/account/oauth-clients/{id}',
      prepare: async (api, owner) => ({ url: await withClient(api, owner) }),
      scopes: ['account:read_only'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'PUT',
      route: '/v4/account/oauth-clients/{id}',
      prepare: async (api, owner) => ({ url: await withClient(api, owner), payload: { label: 'y' } }),
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: '/v4/account/oauth-clients/{id}',
      prepare: async (api, owner) => ({ url: await withClient(api, owner) }),
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'POST',
      route: '/v4/account/oauth-clients/{id}/reset-secret',
      prepare: async (api, owner) => ({ url: `${await withClient(api, owner)}/reset-secret` }),
      scopes: ['account:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
  ])
})
