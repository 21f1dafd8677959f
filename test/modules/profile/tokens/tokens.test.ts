import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { type TestApp, useTestApp } from '../../../helpers/app.ts'
import { bearer, createAccount, createToken, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'

describe('personal access tokens', () => {
  const api = useTestApp()

  const create = (who: TestUser, payload: object) =>
    api.request({ method: 'POST', url: '/v4/profile/tokens', headers: who.headers, payload })

  it('creates a token whose full secret is shown once and works at once', async () => {
    const owner = await createAccount(api)
    const expiry = addSeconds(nowTimestamp(api.clock), 3600)
    const res = await create(owner, { label: 'ci', scopes: 'account:read_only images:read_write', expiry })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(Object.keys(res.body), ['id', 'scopes', 'created', 'label', 'token', 'expiry'])
    assert.equal(res.body.label, 'ci')
    assert.equal(res.body.scopes, 'account:read_only images:read_write')
    assert.equal(res.body.expiry, expiry)
    assert.match(res.body.token, /^[0-9a-f]{64}$/)

    const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: bearer(res.body.token) })
    assert.equal(profile.status, 200)
    assert.equal(profile.headers['x-oauth-scopes'], 'account:read_only images:read_write')

    const view = await api.request({
      method: 'GET',
      url: `/v4/profile/tokens/${res.body.id}`,
      headers: owner.headers,
    })
    assert.equal(view.status, 200)
    assert.equal(view.body.token, res.body.token.slice(0, 16), 'afterwards only the first 16 characters')
    assert.deepEqual({ ...view.body, token: res.body.token }, res.body)
  })

  it('copies the acting token scopes when scopes are left out or *', async () => {
    const owner = await createAccount(api)
    const narrow = await createToken(api, owner.user.id, { scopes: 'account:read_write vpc:read_write' })
    const who = { ...owner, headers: bearer(narrow) }
    const omitted = await create(who, { label: 'omitted' })
    assert.equal(omitted.body.scopes, 'account:read_write vpc:read_write')
    const star = await create(who, { label: 'star', scopes: '*' })
    assert.equal(star.body.scopes, 'account:read_write vpc:read_write')
    const all = await create(owner, { label: 'everything' })
    assert.equal(all.body.scopes, '*')
    assert.equal(all.body.expiry, null, 'no expiry means never (docs/decisions.md#token-expiry)')
  })

  it('allows narrower scopes, read_only under read_write', async () => {
    const owner = await createAccount(api)
    const narrow = await createToken(api, owner.user.id, { scopes: 'account:read_write images:read_write' })
    const res = await create(
      { ...owner, headers: bearer(narrow) },
      { label: 'narrower', scopes: 'images:read_only,account:read_write' },
    )
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.scopes, 'account:read_write images:read_only')
  })

  it('lists only the user’s live personal access tokens', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    await create(owner, { label: 'one' })
    const expiring = await create(owner, { label: 'short', expiry: addSeconds(nowTimestamp(api.clock), 60) })
    const res = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: owner.headers })
    assert.equal(res.status, 200)
    const labels = res.body.data.map((tk: { label: string }) => tk.label)
    assert.deepEqual(labels, ['test', 'one', 'short'], 'the factory token, then the two new ones')
    for (const token of res.body.data) assert.equal(token.token.length, 16)
    const theirs = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: member.headers })
    assert.equal(theirs.body.results, 1, 'another user sees only their own')

    api.clock.advance(61_000)
    try {
      const later = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: owner.headers })
      assert.deepEqual(
        later.body.data.map((tk: { label: string }) => tk.label),
        ['test', 'one'],
      )
      const gone = await api.request({
        method: 'GET',
        url: `/v4/profile/tokens/${expiring.body.id}`,
        headers: owner.headers,
      })
      assert.equal(gone.status, 404)
      const refused = await api.request({
        method: 'GET',
        url: '/v4/profile',
        headers: bearer(expiring.body.token),
      })
      assert.equal(refused.status, 401, 'an expired token is refused')
    } finally {
      api.clock.advance(-61_000)
    }
  })

  it('filters and orders on label and created', async () => {
    const owner = await createAccount(api)
    await create(owner, { label: 'alpha' })
    await create(owner, { label: 'beta' })
    const res = await api.request({
      method: 'GET',
      url: '/v4/profile/tokens',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ label: { '+contains': 'a' }, '+order_by': 'label', '+order': 'desc' }),
      },
    })
    assert.equal(res.status, 200)
    assert.deepEqual(
      res.body.data.map((tk: { label: string }) => tk.label),
      ['beta', 'alpha'],
    )
    const bad = await api.request({
      method: 'GET',
      url: '/v4/profile/tokens',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ scopes: '*' }) },
    })
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body, { errors: [{ reason: 'Cannot filter on scopes', field: 'X-Filter' }] })
  })

  it('changes only the label', async () => {
    const owner = await createAccount(api)
    const created = await create(owner, { label: 'before', scopes: 'account:read_only' })
    const res = await api.request({
      method: 'PUT',
      url: `/v4/profile/tokens/${created.body.id}`,
      headers: owner.headers,
      payload: { label: 'after', scopes: '*', expiry: '2099-01-01T00:00:00' },
    })
    assert.equal(res.status, 200)
    assert.equal(res.body.label, 'after')
    assert.equal(res.body.scopes, 'account:read_only')
    assert.equal(res.body.expiry, null)
  })

  it('revokes a token: the next request with it is 401', async () => {
    const owner = await createAccount(api)
    const created = await create(owner, { label: 'doomed' })
    const headers = bearer(created.body.token)
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers })).status, 200)
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/profile/tokens/${created.body.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    const after = await api.request({ method: 'GET', url: '/v4/profile', headers })
    assert.equal(after.status, 401)
    assert.deepEqual(after.body, { errors: [{ reason: 'Invalid Token' }] })
    const again = await api.request({
      method: 'DELETE',
      url: `/v4/profile/tokens/${created.body.id}`,
      headers: owner.headers,
    })
    assert.equal(again.status, 404)
  })

  it('lets a token revoke itself', async () => {
    const owner = await createAccount(api)
    const created = await create(owner, { label: 'self' })
    const headers = bearer(created.body.token)
    const res = await api.request({ method: 'DELETE', url: `/v4/profile/tokens/${created.body.id}`, headers })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers })).status, 401)
  })

  it('records token_create, token_update and token_delete', async () => {
    const owner = await createAccount(api)
    const created = await create(owner, { label: 'evented' })
    const id = created.body.id
    await api.request({
      method: 'PUT',
      url: `/v4/profile/tokens/${id}`,
      headers: owner.headers,
      payload: { label: 'renamed' },
    })
    await api.request({ method: 'DELETE', url: `/v4/profile/tokens/${id}`, headers: owner.headers })
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ 'entity.type': 'token', '+order_by': 'id', '+order': 'asc' }),
      },
    })
    assert.deepEqual(
      events.body.data.map((e: { action: string; entity: { id: number; label: string } }) => [
        e.action,
        e.entity.id,
        e.entity.label,
      ]),
      [
        ['token_create', id, 'evented'],
        ['token_update', id, 'renamed'],
        ['token_delete', id, 'renamed'],
      ],
    )
    assert.equal(events.body.data[0].entity.url, `/v4/profile/tokens/${id}`)
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/tokens',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/tokens' }),
    },
    {
      method: 'GET',
      route: '/v4/profile/tokens/{id}',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/profile/tokens/${await ownTokenId(api, owner)}` }),
    },
    {
      method: 'POST',
      route: '/v4/profile/tokens',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({
        url: '/v4/profile/tokens',
        payload: { label: 'suite', scopes: 'account:read_only' },
      }),
    },
    {
      method: 'PUT',
      route: '/v4/profile/tokens/{id}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({
        url: `/v4/profile/tokens/${await ownTokenId(api, owner)}`,
        payload: { label: 'renamed' },
      }),
    },
    {
      method: 'DELETE',
      route: '/v4/profile/tokens/{id}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/profile/tokens/${await ownTokenId(api, owner)}` }),
    },
  ])
})

/** A fresh token of the owner (so revoking it does not revoke the token making the call). */
async function ownTokenId(api: TestApp, owner: TestUser): Promise<number> {
  await createToken(api, owner.user.id, { label: 'target', scopes: 'account:read_only' })
  const row = await api.db
    .selectFrom('tokens')
    .select('id')
    .where('user_id', '=', owner.user.id)
    .where('label', '=', 'target')
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow()
  return row.id
}
