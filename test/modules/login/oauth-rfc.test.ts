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

/** Points of the OAuth 2.0 RFCs that the library alone got wrong, each quoted where it is tested. */
describe('OAuth: RFC 6749, 7009 and 7636 details', () => {
  const api = useTestApp()

  async function publicTokens(scope?: string) {
    const { owner, client, pkce, params } = await publicClientSetup(api, scope)
    const browser = new FakeBrowser(api)
    const back = await authorizeAsUser(browser, owner, params)
    const res = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code: back.searchParams.get('code') ?? '',
      redirect_uri: REDIRECT,
      client_id: client.id,
      code_verifier: pkce.verifier,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return { owner, client, pkce, params, browser, tokens: res.body }
  }

  // RFC 6749 §6: "If a new refresh token is issued, the refresh token scope MUST be identical to
  // that of the refresh token included by the client in the request."
  it('a refresh with a narrower scope issues a refresh token that keeps the original scope', async () => {
    const { client, tokens } = await publicTokens()
    const narrowed = await exchangeCode(api, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.id,
      scope: 'account:read_only',
    })
    assert.equal(narrowed.status, 200, JSON.stringify(narrowed.body))
    assert.equal(narrowed.body.scope, 'account:read_only')
    // The new refresh token must carry the original grant: vpc:read_write may be asked for again.
    const again = await exchangeCode(api, {
      grant_type: 'refresh_token',
      refresh_token: narrowed.body.refresh_token,
      client_id: client.id,
    })
    assert.equal(again.status, 200, JSON.stringify(again.body))
    assert.equal(again.body.scope, 'account:read_only vpc:read_write')
  })

  // RFC 6749 §4.1.3: redirect_uri is "REQUIRED, if the "redirect_uri" parameter was included in the
  // authorization request as described in Section 4.1.1, and their values MUST be identical."
  it('a code asked for without redirect_uri is exchanged without redirect_uri', async () => {
    const owner = await createAccount(api)
    await givePassword(api, owner)
    const client = await createOAuthClient(api, owner, { public: false })
    const browser = new FakeBrowser(api)
    const back = await authorizeAsUser(browser, owner, {
      client_id: client.id,
      response_type: 'code',
      scope: 'account:read_only',
      state: 's',
    })
    const code = back.searchParams.get('code')
    assert.ok(code, back.toString())
    const res = await exchangeCode(api, {
      grant_type: 'authorization_code',
      code,
      client_id: client.id,
      client_secret: client.secret,
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
  })

  // RFC 7636 §4.3: code_challenge_method "defaults to "plain" if not present in the request";
  // §4.4.1: "If the server supporting PKCE does not support the requested transformation, the
  // authorization endpoint MUST return the authorization error response with "error" value set to
  // "invalid_request"." (cloudplane never accepts plain: authorization-request.ts.)
  it('refuses a code_challenge without a method (plain, by default) at the authorization endpoint', async () => {
    const owner = await createAccount(api)
    await givePassword(api, owner)
    const client = await createOAuthClient(api, owner, { public: false })
    const browser = new FakeBrowser(api)
    const verifier = pkcePair().verifier
    const params = {
      client_id: client.id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'account:read_only',
      state: 's',
      code_challenge: verifier,
    }
    const first = await browser.get(authorizeQuery(params))
    assert.equal(first.status, 303)
    const to = new URL(String(first.headers.location))
    assert.equal(`${to.origin}${to.pathname}`, REDIRECT)
    assert.deepEqual(
      [to.searchParams.get('error'), to.searchParams.get('error_description'), to.searchParams.get('state')],
      ['invalid_request', 'code_challenge_method must be S256', 's'],
    )
  })

  // RFC 7009 §2.1: "If the token passed to the request is a refresh token and the authorization
  // server supports the revocation of access tokens, then the authorization server SHOULD also
  // invalidate all access tokens based on the same authorization grant".
  it('revoking the refresh token also ends the access token of the same grant', async () => {
    const { client, tokens } = await publicTokens()
    const revoke = await api.request({
      method: 'POST',
      url: '/oauth/revoke',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ token: tokens.refresh_token, client_id: client.id }).toString(),
    })
    assert.equal(revoke.status, 200)
    const refresh = await exchangeCode(api, {
      grant_type: 'refresh_token',
      refresh_token: tokens.refresh_token,
      client_id: client.id,
    })
    assert.equal(refresh.body.error, 'invalid_grant')
    const after = await api.request({
      method: 'GET',
      url: '/v4/profile',
      headers: bearer(tokens.access_token),
    })
    assert.equal(after.status, 401)
  })

  // RFC 6749 §5.2 (used by RFC 7009 §2.2.1): "If the client attempted to authenticate via the
  // "Authorization" request header field, the authorization server MUST respond with an HTTP 401
  // (Unauthorized) status code and include the "WWW-Authenticate" response header field".
  it('revocation with wrong Basic client credentials answers 401 with WWW-Authenticate', async () => {
    const owner = await createAccount(api)
    const client = await createOAuthClient(api, owner, { public: false })
    const res = await api.request({
      method: 'POST',
      url: '/oauth/revoke',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${client.id}:${'f'.repeat(64)}`).toString('base64')}`,
      },
      payload: new URLSearchParams({ token: '0'.repeat(64) }).toString(),
    })
    assert.equal(res.status, 401)
    assert.equal(res.body.error, 'invalid_client')
    assert.ok(res.headers['www-authenticate'], 'no WWW-Authenticate header')
  })

  // RFC 6749 §3.1.2: a redirect URI's query "MUST be retained when adding additional query
  // parameters"; §4.1.2.1: `error` is REQUIRED, `state` REQUIRED if sent. A scope or state outside
  // what §3.3 and Appendix A.5 allow is refused before the user is asked, not after consent.
  it('refuses a scope or a state the protocol does not allow before consent, keeping the URI’s query', async () => {
    const owner = await createAccount(api)
    const redirect = 'https://app.example.com/callback?tenant=7'
    const client = await createOAuthClient(api, owner, { public: true, redirectUri: redirect })
    const pkce = pkcePair()
    const base = {
      client_id: client.id,
      redirect_uri: redirect,
      response_type: 'code',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
    }
    const browser = new FakeBrowser(api)
    const tab = await browser.get(
      authorizeQuery({ ...base, scope: 'account:read_only\tvpc:read_write', state: 'st-9' }),
    )
    assert.equal(tab.status, 303)
    const scoped = new URL(String(tab.headers.location))
    assert.deepEqual(
      [scoped.searchParams.get('tenant'), scoped.searchParams.get('error'), scoped.searchParams.get('state')],
      ['7', 'invalid_scope', 'st-9'],
    )
    const state = await browser.get(
      authorizeQuery({ ...base, scope: 'account:read_only', state: 'caf\u00e9' }),
    )
    assert.equal(state.status, 303)
    const stated = new URL(String(state.headers.location))
    assert.deepEqual(
      [stated.searchParams.get('tenant'), stated.searchParams.get('error')],
      ['7', 'invalid_request'],
    )
  })
})
