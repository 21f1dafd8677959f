import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { bearer, createAccount } from '../../helpers/factories.ts'
import { createOAuthClient } from '../oauth-clients/oauth-client-fixtures.ts'
import {
  authorizeAsUser,
  authorizeQuery,
  exchangeCode,
  FakeBrowser,
  givePassword,
  pkcePair,
  publicClientSetup,
  REDIRECT,
} from './login-helpers.ts'

describe('OAuth authorization server', () => {
  const api = useTestApp()

  const publicSetup = (scope?: string) => publicClientSetup(api, scope)

  it('walks a public client through sign-in, consent, code and token; the token acts with exactly its scopes', async () => {
    const { owner, client, pkce, params, browser } = await publicSetup()
    const back = await authorizeAsUser(browser, owner, params)
    assert.equal(`${back.origin}${back.pathname}`, REDIRECT)
    assert.equal(back.searchParams.get('state'), 'st-123')
    const code = back.searchParams.get('code')
    assert.ok(code)
    const res = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: client.id,
      code_verifier: pkce.verifier,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.token_type, 'Bearer')
    // Two hours, counted from the whole second the token was issued in.
    assert.ok(res.body.expires_in >= 7199 && res.body.expires_in <= 7200, String(res.body.expires_in))
    assert.equal(res.body.scope, 'account:read_only vpc:read_write')
    assert.equal(res.headers['cache-control'], 'no-store')
    const token = res.body.access_token
    const profile = await api.request({ method: 'GET', url: '/v4/profile/apps', headers: bearer(token) })
    assert.equal(profile.status, 200)
    assert.equal(profile.headers['x-oauth-scopes'], 'account:read_only vpc:read_write')
    const app = profile.body.data[0]
    assert.equal(app.label, 'Test App')
    assert.equal(app.scopes, 'account:read_only vpc:read_write')
    assert.equal(app.website, 'https://app.example.com')
    // account:read_only does not reach account writes, nor images.
    const write = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bearer(token),
      payload: { label: 'x', scopes: 'vpc:read_write' },
    })
    assert.equal(write.status, 401)
    const images = await api.request({ method: 'GET', url: '/v4/images/private/1', headers: bearer(token) })
    assert.equal(images.status, 401)
    // Preferences are kept per OAuth client: the app's are not the personal token's.
    const put = await api.request({
      method: 'PUT',
      url: '/v4/profile/preferences',
      headers: owner.headers,
      payload: { theme: 'dark' },
    })
    assert.equal(put.status, 200)
    const appPrefs = await api.request({
      method: 'GET',
      url: '/v4/profile/preferences',
      headers: bearer(token),
    })
    assert.equal(appPrefs.status, 200)
    assert.deepEqual(appPrefs.body, {})
    // Expiry: two hours.
    api.clock.advance(7201 * 1000)
    const expired = await api.request({ method: 'GET', url: '/v4/profile', headers: bearer(token) })
    assert.equal(expired.status, 401)
  })

  it('revoking the app in the profile makes its token 401 on the next request', async () => {
    const { owner, client, pkce, params, browser } = await publicSetup()
    const back = await authorizeAsUser(browser, owner, params)
    const res = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: client.id,
      code_verifier: pkce.verifier,
    })
    const token = res.body.access_token
    const apps = await api.request({ method: 'GET', url: '/v4/profile/apps', headers: owner.headers })
    const appId = apps.body.data[0].id
    const revoke = await api.request({
      method: 'DELETE',
      url: `/v4/profile/apps/${appId}`,
      headers: owner.headers,
    })
    assert.equal(revoke.status, 200)
    const after = await api.request({ method: 'GET', url: '/v4/profile', headers: bearer(token) })
    assert.equal(after.status, 401)
    const refresh = await exchangeCode(api, {
      grant_type: 'refresh_token',
      refresh_token: res.body.refresh_token,
      client_id: client.id,
    })
    assert.equal(refresh.status, 400)
    assert.equal(refresh.body.error, 'invalid_grant')
  })

  it('a code is good once, for a few minutes, with its own verifier', async () => {
    const { owner, client, pkce, params, browser } = await publicSetup()
    const exchange = (code: string, verifier = pkce.verifier) =>
      exchangeCode(api, {
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: client.id,
        code_verifier: verifier,
      })
    const first = (await authorizeAsUser(browser, owner, params)).searchParams.get('code') ?? ''
    assert.equal((await exchange(first)).status, 200)
    const replay = await exchange(first)
    assert.equal(replay.status, 400)
    assert.equal(replay.body.error, 'invalid_grant')

    const second = (await authorizeAsUser(browser, owner, params)).searchParams.get('code') ?? ''
    const wrongVerifier = await exchange(second, pkcePair().verifier)
    assert.equal(wrongVerifier.body.error, 'invalid_grant')
    // The failed attempt consumed the code: guessing verifiers gets nowhere.
    assert.equal((await exchange(second)).body.error, 'invalid_grant')

    const elsewhere = (await authorizeAsUser(browser, owner, params)).searchParams.get('code') ?? ''
    const wrongRedirect = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code: elsewhere,
      redirect_uri: 'https://app.example.com/other',
      client_id: client.id,
      code_verifier: pkce.verifier,
    })
    assert.equal(wrongRedirect.status, 400)
    assert.equal(wrongRedirect.body.error, 'invalid_grant')

    const third = (await authorizeAsUser(browser, owner, params)).searchParams.get('code') ?? ''
    api.clock.advance(5 * 60 * 1000 + 1000)
    const late = await exchange(third)
    assert.equal(late.status, 400)
    assert.equal(late.body.error, 'invalid_grant')
  })

  it('refresh tokens rotate: each is good once', async () => {
    const { owner, client, pkce, params, browser } = await publicSetup()
    const back = await authorizeAsUser(browser, owner, params)
    const first = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: client.id,
      code_verifier: pkce.verifier,
    })
    const refreshed = await exchangeCode(api, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: client.id,
    })
    assert.equal(refreshed.status, 200, JSON.stringify(refreshed.body))
    assert.notEqual(refreshed.body.refresh_token, first.body.refresh_token)
    assert.equal(refreshed.body.scope, 'account:read_only vpc:read_write')
    const profile = await api.request({
      method: 'GET',
      url: '/v4/profile',
      headers: bearer(refreshed.body.access_token),
    })
    assert.equal(profile.status, 200)
    const reused = await exchangeCode(api, {
      grant_type: 'refresh_token',
      refresh_token: first.body.refresh_token,
      client_id: client.id,
    })
    assert.equal(reused.status, 400)
    assert.equal(reused.body.error, 'invalid_grant')
  })

  it('revocation (RFC 7009) ends an access token; unknown tokens answer the same', async () => {
    const { owner, client, pkce, params, browser } = await publicSetup()
    const back = await authorizeAsUser(browser, owner, params)
    const tokens = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: client.id,
      code_verifier: pkce.verifier,
    })
    const revoke = (token: string) =>
      api.request({
        method: 'POST',
        url: '/oauth/revoke',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ token, client_id: client.id }).toString(),
      })
    assert.equal((await revoke(tokens.body.access_token)).status, 200)
    assert.equal((await revoke('0'.repeat(64))).status, 200)
    const after = await api.request({
      method: 'GET',
      url: '/v4/profile',
      headers: bearer(tokens.body.access_token),
    })
    assert.equal(after.status, 401)
  })

  it('refuses missing or plain PKCE for a public client, with the state, at the app’s redirect URI', async () => {
    const { params, browser } = await publicSetup()
    const { code_challenge: _c, code_challenge_method: _m, ...withoutPkce } = params
    for (const bad of [withoutPkce, { ...params, code_challenge_method: 'plain' }]) {
      const res = await browser.get(authorizeQuery(bad))
      assert.equal(res.status, 303)
      const to = new URL(String(res.headers.location))
      assert.equal(`${to.origin}${to.pathname}`, REDIRECT)
      assert.equal(to.searchParams.get('error'), 'invalid_request')
      assert.equal(to.searchParams.get('state'), 'st-123')
    }
  })

  it('never redirects to a redirect URI other than the registered one, nor for an unknown client', async () => {
    const { params, browser } = await publicSetup()
    for (const bad of [
      { ...params, redirect_uri: 'https://evil.example/callback' },
      { ...params, redirect_uri: `${REDIRECT}/extra` },
      { ...params, client_id: '0123456789abcdef0123' },
    ]) {
      const res = await browser.get(authorizeQuery(bad))
      assert.equal(res.status, 400)
      assert.equal(res.headers.location, undefined)
      assert.match(res.body, /Cannot authorize/)
    }
  })

  it('refuses an unknown scope (invalid_scope) and tells the app when the user denies (access_denied)', async () => {
    const { owner, params, browser } = await publicSetup()
    const badScope = await browser.get(authorizeQuery({ ...params, scope: 'vpc:admin' }))
    assert.equal(new URL(String(badScope.headers.location)).searchParams.get('error'), 'invalid_scope')
    await browser.get(authorizeQuery(params))
    const login = await browser.submit('/login', {
      username: owner.user.username,
      password: 'correct horse battery staple',
    })
    await browser.get(String(login.headers.location))
    const denied = await browser.submit('/oauth/authorize', { decision: 'deny' })
    const to = new URL(String(denied.headers.location))
    assert.equal(to.searchParams.get('error'), 'access_denied')
    assert.equal(to.searchParams.get('state'), 'st-123')
    assert.equal(to.searchParams.get('code'), null)
  })

  it('a confidential client must present its secret at the token endpoint', async () => {
    const owner = await createAccount(api)
    await givePassword(api, owner)
    const client = await createOAuthClient(api, owner, { public: false })
    const browser = new FakeBrowser(api)
    const params = { client_id: client.id, response_type: 'code', scope: '*', state: 's' }
    const code = () => authorizeAsUser(browser, owner, params).then((u) => u.searchParams.get('code') ?? '')
    const base = { grant_type: 'authorization_code', redirect_uri: REDIRECT, client_id: client.id }
    const wrong = await exchangeCode(api, { ...base, code: await code(), client_secret: 'f'.repeat(64) })
    assert.equal(wrong.body.error, 'invalid_client')
    const missing = await exchangeCode(api, { ...base, code: await code() })
    assert.equal(missing.status, 400)
    const right = await exchangeCode(api, { ...base, code: await code(), client_secret: client.secret })
    assert.equal(right.status, 200, JSON.stringify(right.body))
    assert.equal(right.body.scope, '*')
  })

  it('consent without the CSRF field is refused', async () => {
    const { owner, params, browser } = await publicSetup()
    await browser.get(authorizeQuery(params))
    const login = await browser.submit('/login', {
      username: owner.user.username,
      password: 'correct horse battery staple',
    })
    await browser.get(String(login.headers.location))
    const forged = await browser.post('/oauth/authorize', {
      ...browser.hiddenFields(),
      csrf: '0'.repeat(64),
      decision: 'allow',
    })
    assert.equal(forged.status, 403)
    assert.equal(forged.headers.location, undefined)
  })
})
