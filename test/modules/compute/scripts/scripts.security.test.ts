import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../../helpers/app.ts'
import { bearer, createAccount, createToken, createUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'
import { createScript, SCRIPTS } from './script-fixtures.ts'

describe('script routes: security', () => {
  const api = useTestApp()
  const route = '/v4/compute/scripts'
  const one = async (owner: Parameters<typeof createScript>[1], body: Record<string, unknown> = {}) =>
    `${SCRIPTS}/${(await createScript(api, owner, body)).id}`

  securitySuite(api, [
    {
      method: 'GET',
      route,
      prepare: async () => ({ url: SCRIPTS }),
      scopes: 'public',
      success: 200,
      restricted: 200,
    },
    {
      method: 'GET',
      route: `${route}/{id} (public)`,
      prepare: async (_api, owner) => ({ url: await one(owner, { is_public: true }) }),
      scopes: 'public',
      success: 200,
      restricted: 200,
    },
    {
      method: 'POST',
      route,
      prepare: async () => {
        const { payload } = { payload: { label: 'new one', script: '#!/bin/sh\n', images: ['any/all'] } }
        return { url: SCRIPTS, payload }
      },
      scopes: ['stackscripts:read_write'],
      success: 200,
      restricted: 403,
    },
    {
      method: 'PUT',
      route: `${route}/{id}`,
      prepare: async (_api, owner) => ({ url: await one(owner), payload: { rev_note: 'changed' } }),
      scopes: ['stackscripts:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
    {
      method: 'DELETE',
      route: `${route}/{id}`,
      prepare: async (_api, owner) => ({ url: await one(owner) }),
      scopes: ['stackscripts:read_write'],
      success: 200,
      restricted: 403,
      crossAccount: true,
    },
  ])

  it('keeps a private script from no token (404), another account (404) and an ungranted user (403)', async () => {
    const owner = await createAccount(api)
    const url = await one(owner)
    assert.equal((await api.request({ method: 'GET', url })).status, 404)
    const stranger = await createAccount(api)
    assert.equal((await api.request({ method: 'GET', url, headers: stranger.headers })).status, 404)
    const member = await createUser(api, owner)
    const res = await api.request({ method: 'GET', url, headers: member.headers })
    assert.equal(res.status, 403)
    assert.deepEqual(res.body, { errors: [{ reason: 'Unauthorized' }] })
  })

  it('a token without a stackscripts scope reads what no token does: public scripts only', async () => {
    const owner = await createAccount(api)
    const mine = await createScript(api, owner, { label: 'private-with-secrets' })
    const narrow = bearer(await createToken(api, owner.user.id, { scopes: 'vpc:read_write' }))
    assert.equal(
      (await api.request({ method: 'GET', url: `${SCRIPTS}/${mine.id}`, headers: narrow })).status,
      404,
    )
    const listed = await api.request({
      method: 'GET',
      url: SCRIPTS,
      headers: { ...narrow, 'x-filter': JSON.stringify({ mine: true }) },
    })
    assert.equal(listed.status, 200)
    assert.equal(listed.body.results, 0)
    const reader = bearer(await createToken(api, owner.user.id, { scopes: 'stackscripts:read_only' }))
    assert.equal(
      (await api.request({ method: 'GET', url: `${SCRIPTS}/${mine.id}`, headers: reader })).status,
      200,
    )
  })
})
