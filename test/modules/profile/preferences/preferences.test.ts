import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../../helpers/app.ts'
import { bearer, createAccount, createToken, createUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'
import { createOauthToken } from '../profile-helpers.ts'

describe('profile preferences', () => {
  const api = useTestApp()

  const get = (headers: Record<string, string>) =>
    api.request({ method: 'GET', url: '/v4/profile/preferences', headers })
  const put = (headers: Record<string, string>, payload: unknown) =>
    api.request({
      method: 'PUT',
      url: '/v4/profile/preferences',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: JSON.stringify(payload),
    })

  it('starts empty and stores any JSON object, replacing it whole', async () => {
    const owner = await createAccount(api)
    assert.deepEqual((await get(owner.headers)).body, {})
    const first = {
      theme: 'dark',
      sortKeys: { linodes: 'label' },
      pinned: [1, 2, 3],
      beta: true,
      zoom: 1.25,
      none: null,
      'ünïcode ✓': 'ok',
    }
    const saved = await put(owner.headers, first)
    assert.equal(saved.status, 200, JSON.stringify(saved.body))
    assert.deepEqual(saved.body, first)
    assert.deepEqual((await get(owner.headers)).body, first)
    const replaced = await put(owner.headers, { theme: 'light' })
    assert.deepEqual(replaced.body, { theme: 'light' })
    assert.deepEqual(
      (await get(owner.headers)).body,
      { theme: 'light' },
      'keys left out are gone, not merged',
    )
  })

  it('keeps one object per OAuth client; personal access tokens share one', async () => {
    const owner = await createAccount(api)
    const otherPat = bearer(await createToken(api, owner.user.id))
    const appA = await createOauthToken(api, owner, { clientId: 'client-a' })
    const appA2 = await createOauthToken(api, owner, { clientId: 'client-a', label: 'same client again' })
    const appB = await createOauthToken(api, owner, { clientId: 'client-b' })
    await put(owner.headers, { slot: 'pat' })
    await put(appA.headers, { slot: 'a' })
    await put(appB.headers, { slot: 'b' })
    assert.deepEqual((await get(otherPat)).body, { slot: 'pat' })
    assert.deepEqual((await get(appA2.headers)).body, { slot: 'a' })
    assert.deepEqual((await get(appB.headers)).body, { slot: 'b' })
    assert.deepEqual((await get(owner.headers)).body, { slot: 'pat' })
  })

  it('keeps each user’s preferences to themselves', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: true })
    await put(owner.headers, { mine: true })
    assert.deepEqual((await get(member.headers)).body, {})
  })

  it('takes up to 65,535 characters serialized, not one more', async () => {
    const owner = await createAccount(api)
    const overhead = JSON.stringify({ k: '' }).length
    const largest = { k: 'x'.repeat(65_535 - overhead) }
    assert.equal(JSON.stringify(largest).length, 65_535)
    assert.equal((await put(owner.headers, largest)).status, 200)
    const res = await put(owner.headers, { k: 'x'.repeat(65_536 - overhead) })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [{ reason: 'Preferences must be at most 65535 characters when serialized' }],
    })
    assert.deepEqual((await get(owner.headers)).body, largest, 'the refused object was not stored')
  })

  it('counts characters, not UTF-16 units: an emoji is one', async () => {
    const owner = await createAccount(api)
    const overhead = JSON.stringify({ k: '' }).length
    // 65,535 characters, 131,070 - overhead UTF-16 units.
    const largest = { k: '😀'.repeat(65_535 - overhead) }
    const stored = await put(owner.headers, largest)
    assert.equal(stored.status, 200, JSON.stringify(stored.body))
    assert.deepEqual((await get(owner.headers)).body, largest)
    const over = await put(owner.headers, { k: '😀'.repeat(65_536 - overhead) })
    assert.equal(over.status, 400)
    assert.deepEqual(over.body, {
      errors: [{ reason: 'Preferences must be at most 65535 characters when serialized' }],
    })
  })

  it('refuses anything but a JSON object', async () => {
    const owner = await createAccount(api)
    for (const payload of [[1, 2], 'text', 5, null]) {
      const res = await put(owner.headers, payload)
      assert.equal(res.status, 400, JSON.stringify(payload))
      assert.deepEqual(res.body, { errors: [{ reason: 'Request body must be a JSON object' }] })
    }
    const empty = await api.request({ method: 'PUT', url: '/v4/profile/preferences', headers: owner.headers })
    assert.equal(empty.status, 400)
  })

  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/profile/preferences',
      scopes: ['account:read_only'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/preferences' }),
    },
    {
      method: 'PUT',
      route: '/v4/profile/preferences',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/preferences', payload: { theme: 'dark' } }),
    },
  ])
})
