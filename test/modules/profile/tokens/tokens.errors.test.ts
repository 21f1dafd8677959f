import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { bearer, createAccount, createToken, createUser, type TestUser } from '../../../helpers/factories.ts'
import { createOauthToken } from '../profile-helpers.ts'

describe('personal access token refusals', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  const create = (payload: unknown, headers = owner.headers) =>
    api.request({ method: 'POST', url: '/v4/profile/tokens', headers, payload: payload as object })

  it('needs a label of 1 to 100 characters', async () => {
    for (const payload of [{}, { label: '' }, { label: 'x'.repeat(101) }, { label: 7 }]) {
      const res = await create(payload)
      assert.equal(res.status, 400, JSON.stringify(payload))
      assert.equal(res.body.errors[0].field, 'label')
    }
    assert.equal((await create({ label: 'x'.repeat(100) })).status, 200)
  })

  it('refuses unknown scope categories, levels and shapes', async () => {
    for (const scopes of [
      '',
      'account',
      'account:admin',
      'nothing:read_only',
      '* account:read_only',
      'account:read_only:x',
    ]) {
      const res = await create({ label: 'bad', scopes })
      assert.equal(res.status, 400, scopes)
      assert.deepEqual(res.body.errors, [
        {
          field: 'scopes',
          reason: 'scopes must be * or space-separated <category>:read_only or <category>:read_write scopes',
        },
      ])
    }
  })

  it('refuses scopes beyond the acting token’s', async () => {
    const narrow = await createToken(api, owner.user.id, { scopes: 'account:read_write images:read_only' })
    for (const scopes of ['images:read_write', 'vpc:read_write', 'account:read_write ips:read_only']) {
      const res = await create({ label: 'wider', scopes }, bearer(narrow))
      assert.equal(res.status, 400, scopes)
      assert.deepEqual(res.body.errors, [
        { field: 'scopes', reason: 'scopes cannot exceed the scopes of the token making this request' },
      ])
    }
  })

  it('an OAuth token cannot create a personal access token', async () => {
    const oauth = await createOauthToken(api, owner, { scopes: 'account:read_write' })
    for (const payload of [
      { label: 'from-oauth', scopes: '*' },
      { label: 'from-oauth', scopes: 'account:read_only' },
    ]) {
      const res = await create(payload, oauth.headers)
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, {
        errors: [{ reason: 'Your OAuth token is not authorized to use this endpoint.' }],
      })
    }
    const list = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: owner.headers })
    assert.ok(!list.body.data.some((t: { label: string }) => t.label === 'from-oauth'))
  })

  it('a new token never outlives the token creating it', async () => {
    const soon = addSeconds(nowTimestamp(api.clock), 60)
    const shortLived = bearer(await createToken(api, owner.user.id, { expiry: soon }))
    for (const expiry of [undefined, null, '2099-12-31T23:59:59']) {
      const res = await create({ label: 'lasting', ...(expiry !== undefined && { expiry }) }, shortLived)
      assert.equal(res.status, 200, String(expiry))
      assert.equal(res.body.expiry, soon, String(expiry))
    }
    const sooner = addSeconds(nowTimestamp(api.clock), 30)
    assert.equal((await create({ label: 'shorter', expiry: sooner }, shortLived)).body.expiry, sooner)
    const created = await create({ label: 'lasting' }, shortLived)
    api.clock.advance(61_000)
    const res = await api.request({ method: 'GET', url: '/v4/profile', headers: bearer(created.body.token) })
    assert.equal(res.status, 401, 'it expires with its creator')
  })

  it('shows a token by id until it expires, then answers 404 for it', async () => {
    const created = await create({ label: 'brief', expiry: addSeconds(nowTimestamp(api.clock), 60) })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const byId = () =>
      api.request({ method: 'GET', url: `/v4/profile/tokens/${created.body.id}`, headers: owner.headers })
    assert.equal((await byId()).body.label, 'brief')
    api.clock.advance(61_000)
    try {
      const gone = await byId()
      assert.equal(gone.status, 404)
      assert.deepEqual(gone.body, { errors: [{ reason: 'Not found' }] })
    } finally {
      api.clock.advance(-61_000)
    }
  })

  it('refuses an expiry that is not a date-time or not in the future', async () => {
    const now = nowTimestamp(api.clock)
    for (const expiry of ['tomorrow', '2030-02-30T00:00:00', now, addSeconds(now, -60)]) {
      const res = await create({ label: 'when', expiry })
      assert.equal(res.status, 400, expiry)
      assert.equal(res.body.errors[0].field, 'expiry')
    }
    const ok = await create({ label: 'when', expiry: '2099-12-31T23:59:59' })
    assert.equal(ok.status, 200)
    assert.equal(ok.body.expiry, '2099-12-31T23:59:59')
    const zoned = await create({ label: 'when', expiry: '2099-12-31T23:00:00+02:00' })
    assert.equal(zoned.body.expiry, '2099-12-31T21:00:00', 'a zone is converted to UTC')
    const none = await create({ label: 'when', expiry: null })
    assert.equal(none.body.expiry, null)
  })

  it('reports scope and expiry failures together', async () => {
    const res = await create({ label: 'both', scopes: 'bad', expiry: 'bad' })
    assert.deepEqual(
      res.body.errors.map((e: { field: string }) => e.field),
      ['scopes', 'expiry'],
    )
  })

  it('refuses a label change outside 1 to 100 characters', async () => {
    const created = await create({ label: 'keep' })
    const res = await api.request({
      method: 'PUT',
      url: `/v4/profile/tokens/${created.body.id}`,
      headers: owner.headers,
      payload: { label: '' },
    })
    assert.equal(res.status, 400)
    assert.equal(res.body.errors[0].field, 'label')
  })

  it('does not show, change or revoke another user’s token, nor an OAuth app token', async () => {
    const member = await createUser(api, owner, { restricted: false })
    const theirs = await create({ label: 'theirs' }, member.headers)
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const res = await api.request({
        method,
        url: `/v4/profile/tokens/${theirs.body.id}`,
        headers: owner.headers,
        ...(method === 'PUT' && { payload: { label: 'mine now' } }),
      })
      assert.equal(res.status, 404, method)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
    }
    const oauth = await createOauthToken(api, owner)
    const row = await api.db
      .selectFrom('tokens')
      .select('id')
      .where('authorized_app_id', '=', oauth.appId)
      .executeTakeFirstOrThrow()
    const res = await api.request({
      method: 'GET',
      url: `/v4/profile/tokens/${row.id}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 404, 'OAuth tokens are listed under /profile/apps, not here')
  })

  it('answers 404 for ids that cannot exist', async () => {
    for (const id of ['0', '05', 'abc', '99999999999999999999']) {
      const res = await api.request({
        method: 'GET',
        url: `/v4/profile/tokens/${id}`,
        headers: owner.headers,
      })
      assert.equal(res.status, 404, id)
    }
  })
})
