import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import { issueToken } from '../../../src/modules/auth/issue-token.ts'
import { useTestApp } from '../../helpers/app.ts'
import { bearer, createAccount, createToken } from '../../helpers/factories.ts'

describe('authentication', () => {
  const api = useTestApp()

  const profile = (headers: Record<string, string>) =>
    api.request({ method: 'GET', url: '/v4/profile', headers })

  it('accepts the Bearer scheme in any case and surrounding spaces', async () => {
    const owner = await createAccount(api)
    for (const header of [`Bearer ${owner.token}`, `bearer ${owner.token}`, `BEARER  ${owner.token}`]) {
      assert.equal((await profile({ authorization: header })).status, 200, header)
    }
  })

  it('a token stops working when its expiry passes on the server clock', async () => {
    const owner = await createAccount(api)
    const token = await createToken(api, owner.user.id, { expiry: addSeconds(nowTimestamp(api.clock), 60) })
    assert.equal((await profile(bearer(token))).status, 200)
    api.clock.advance(61_000)
    try {
      const res = await profile(bearer(token))
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { errors: [{ reason: 'Invalid Token' }] })
      assert.equal(res.headers['x-oauth-scopes'], 'unknown')
    } finally {
      api.clock.reset()
    }
  })

  it('an OAuth token works like a personal one, and dies with its app', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    const app = await api.db
      .insertInto('authorized_apps')
      .values({
        user_id: owner.user.id,
        client_id: 'client-1',
        label: 'Console',
        scopes: '*',
        website: 'https://example.com',
        thumbnail_url: 'https://example.com/t.png',
        created: now,
        expiry: addSeconds(now, 3600),
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const { secret } = await issueToken(api.db, {
      userId: owner.user.id,
      authorizedAppId: app.id,
      label: 'oauth',
      scopes: 'account:read_only',
      created: now,
      expiry: null,
    })
    const ok = await profile(bearer(secret))
    assert.equal(ok.status, 200)
    assert.equal(ok.headers['x-oauth-scopes'], 'account:read_only')
    api.clock.advance(3601_000)
    try {
      assert.equal(
        (await profile(bearer(secret))).status,
        401,
        'an expired app authorization ends its tokens',
      )
    } finally {
      api.clock.reset()
    }
    await api.db.deleteFrom('authorized_apps').where('id', '=', app.id).execute()
    assert.equal((await profile(bearer(secret))).status, 401, 'a revoked app ends its tokens')
  })

  it('a token of a deleted user is invalid', async () => {
    const owner = await createAccount(api)
    await api.db.deleteFrom('users').where('id', '=', owner.user.id).execute()
    assert.equal((await profile(owner.headers)).status, 401)
  })

  it('secrets never appear in responses other than the one that creates them', async () => {
    const owner = await createAccount(api)
    const res = await api.request({ method: 'GET', url: '/v4/account/users', headers: owner.headers })
    assert.doesNotMatch(res.raw.body, new RegExp(owner.token))
    assert.doesNotMatch(JSON.stringify(res.headers), new RegExp(owner.token))
  })
})
