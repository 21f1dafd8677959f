import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { issueToken } from '../../../../src/modules/auth/issue-token.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { bearer, createAccount, createUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'
import { createOauthToken } from '../profile-helpers.ts'

describe('authorized apps', () => {
  const api = useTestApp()

  it('lists and views the apps the user authorized, in the real key order', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    const app = await createOauthToken(api, owner, {
      label: 'Terraform Cloud',
      scopes: 'account:read_only vpc:read_write',
    })
    await createOauthToken(api, member, { label: 'Not yours' })
    const res = await api.request({ method: 'GET', url: '/v4/profile/apps', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 1)
    const listed = res.body.data[0]
    assert.deepEqual(Object.keys(listed), [
      'id',
      'label',
      'thumbnail_url',
      'scopes',
      'created',
      'expiry',
      'website',
    ])
    assert.deepEqual(listed, {
      id: app.appId,
      label: 'Terraform Cloud',
      thumbnail_url: 'https://app.example.com/thumbnail.png',
      scopes: 'account:read_only vpc:read_write',
      created: listed.created,
      expiry: null,
      website: 'https://app.example.com',
    })
    const view = await api.request({
      method: 'GET',
      url: `/v4/profile/apps/${app.appId}`,
      headers: owner.headers,
    })
    assert.deepEqual(view.body, listed)
    const theirs = await api.request({
      method: 'GET',
      url: `/v4/profile/apps/${app.appId}`,
      headers: member.headers,
    })
    assert.equal(theirs.status, 404)
  })

  it('revoking an app makes every token of that app fail with 401 at once', async () => {
    const owner = await createAccount(api)
    const app = await createOauthToken(api, owner, { label: 'Doomed' })
    const { secret: second } = await issueToken(api.db, {
      userId: owner.user.id,
      label: 'oauth-2',
      scopes: '*',
      created: nowTimestamp(api.clock),
      expiry: null,
      authorizedAppId: app.appId,
    })
    const survivor = await createOauthToken(api, owner, { label: 'Survivor' })
    for (const headers of [app.headers, bearer(second), survivor.headers]) {
      assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers })).status, 200)
    }
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/profile/apps/${app.appId}`,
      headers: owner.headers,
    })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    for (const headers of [app.headers, bearer(second)]) {
      const after = await api.request({ method: 'GET', url: '/v4/profile', headers })
      assert.equal(after.status, 401)
      assert.deepEqual(after.body, { errors: [{ reason: 'Invalid Token' }] })
    }
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/profile', headers: survivor.headers })).status,
      200,
    )
    const list = await api.request({ method: 'GET', url: '/v4/profile/apps', headers: owner.headers })
    assert.deepEqual(
      list.body.data.map((a: { label: string }) => a.label),
      ['Survivor'],
    )
    const again = await api.request({
      method: 'DELETE',
      url: `/v4/profile/apps/${app.appId}`,
      headers: owner.headers,
    })
    assert.equal(again.status, 404)
  })

  it('an app may revoke itself with its own token', async () => {
    const owner = await createAccount(api)
    const app = await createOauthToken(api, owner)
    const res = await api.request({
      method: 'DELETE',
      url: `/v4/profile/apps/${app.appId}`,
      headers: app.headers,
    })
    assert.equal(res.status, 200)
    assert.equal((await api.request({ method: 'GET', url: '/v4/profile', headers: app.headers })).status, 401)
  })

  it('filters and orders on label, created and expiry; nothing else', async () => {
    const owner = await createAccount(api)
    const soon = addSeconds(nowTimestamp(api.clock), 3600)
    await createOauthToken(api, owner, { label: 'Beta app', expiry: soon })
    await createOauthToken(api, owner, { label: 'Alpha app' })
    const filtered = async (filter: object) =>
      api.request({
        method: 'GET',
        url: '/v4/profile/apps',
        headers: { ...owner.headers, 'x-filter': JSON.stringify(filter) },
      })
    const ordered = await filtered({ '+order_by': 'label' })
    assert.deepEqual(
      ordered.body.data.map((a: { label: string }) => a.label),
      ['Alpha app', 'Beta app'],
    )
    const expiring = await filtered({ expiry: { '+gte': nowTimestamp(api.clock) } })
    assert.deepEqual(
      expiring.body.data.map((a: { label: string }) => a.label),
      ['Beta app'],
    )
    const never = await filtered({ expiry: null })
    assert.deepEqual(
      never.body.data.map((a: { label: string }) => a.label),
      ['Alpha app'],
    )
    const refused = await filtered({ website: 'x' })
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, { errors: [{ reason: 'Cannot filter on website', field: 'X-Filter' }] })
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/apps',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/apps' }),
    },
    {
      method: 'GET',
      route: '/v4/profile/apps/{id}',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({
        url: `/v4/profile/apps/${(await createOauthToken(api, owner)).appId}`,
      }),
    },
    {
      method: 'DELETE',
      route: '/v4/profile/apps/{id}',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({
        url: `/v4/profile/apps/${(await createOauthToken(api, owner)).appId}`,
      }),
    },
  ])
})
