import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { setUserPassword } from '../../../src/modules/login/password.service.ts'
import type { TestApp, TestResponse } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { createOAuthClient } from '../oauth-clients/oauth-client-fixtures.ts'
import {
  alignToStep,
  answerSecurityQuestions,
  authenticatorCode,
  requestTfaSecret,
} from '../profile/profile-helpers.ts'

export const PASSWORD = 'correct horse battery staple'
export const REDIRECT = 'https://app.example.com/callback'

export async function givePassword(api: TestApp, user: TestUser, password = PASSWORD): Promise<void> {
  await setUserPassword(api.db, api.clock, { userId: user.user.id, password })
}

/** Turns two-factor on through the API; returns the TOTP secret and the scratch code. */
export async function enableTwoFactor(
  api: TestApp,
  user: TestUser,
): Promise<{ secret: string; scratch: string }> {
  await answerSecurityQuestions(api, user)
  const { secret } = await requestTfaSecret(api, user)
  alignToStep(api.clock)
  const res = await api.request({
    method: 'POST',
    url: '/v4/profile/tfa-enable-confirm',
    headers: user.headers,
    payload: { tfa_code: await authenticatorCode(secret, api.clock) },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  // The code just used is spent; later codes come from later steps.
  api.clock.advance(30_000)
  return { secret, scratch: res.body.scratch }
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url')
  const challenge = createHash('sha256').update(verifier).digest('base64url')
  return { verifier, challenge }
}

export function authorizeQuery(params: Record<string, string>): string {
  return `/oauth/authorize?${new URLSearchParams(params)}`
}

/** A browser for app.inject: keeps cookies, posts forms with the page's CSRF field. */
export class FakeBrowser {
  readonly cookies = new Map<string, string>()
  lastPage = ''

  readonly api: TestApp
  readonly address: string

  constructor(api: TestApp, address = '203.0.113.10') {
    this.api = api
    this.address = address
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ')
  }

  private remember(res: TestResponse): void {
    const set = res.headers['set-cookie']
    for (const line of set === undefined ? [] : Array.isArray(set) ? set : [set]) {
      const [pair] = line.split(';')
      const [name, value] = (pair ?? '').split('=')
      if (name === undefined) continue
      if (value === undefined || value === '' || /Max-Age=0/.test(line)) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    if (typeof res.body === 'string') this.lastPage = res.body
  }

  async get(url: string): Promise<TestResponse> {
    const res = await this.api.request({
      method: 'GET',
      url,
      headers: { cookie: this.cookieHeader(), 'user-agent': 'FakeBrowser/1.0' },
      remoteAddress: this.address,
    })
    this.remember(res)
    return res
  }

  csrf(): string {
    const match = /name="csrf" value="([0-9a-f]{64})"/.exec(this.lastPage)
    assert.ok(match, 'the page has no CSRF field')
    return match[1] as string
  }

  hiddenFields(): Record<string, string> {
    const fields: Record<string, string> = {}
    for (const m of this.lastPage.matchAll(/<input type="hidden" name="([a-z_]+)" value="([^"]*)">/g)) {
      fields[m[1] as string] = (m[2] as string).replaceAll('&amp;', '&').replaceAll('&quot;', '"')
    }
    return fields
  }

  async post(url: string, fields: Record<string, string>): Promise<TestResponse> {
    const res = await this.api.request({
      method: 'POST',
      url,
      headers: {
        cookie: this.cookieHeader(),
        'content-type': 'application/x-www-form-urlencoded',
        'user-agent': 'FakeBrowser/1.0',
      },
      payload: new URLSearchParams(fields).toString(),
      remoteAddress: this.address,
    })
    this.remember(res)
    return res
  }

  /** Submits the form on the current page with its hidden fields plus these. */
  async submit(url: string, fields: Record<string, string>): Promise<TestResponse> {
    return this.post(url, { ...this.hiddenFields(), ...fields })
  }
}

export async function exchangeCode(api: TestApp, fields: Record<string, string>): Promise<TestResponse> {
  return api.request({
    method: 'POST',
    url: '/oauth/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  })
}

/** Walks sign-in and consent for a user without two-factor; returns the redirect to the app. */
export async function authorizeAsUser(
  browser: FakeBrowser,
  user: TestUser,
  params: Record<string, string>,
): Promise<URL> {
  const page = await browser.get(authorizeQuery(params))
  assert.equal(page.status, 200, page.body)
  if (page.body.includes('name="password"')) {
    const login = await browser.submit('/login', { username: user.user.username, password: PASSWORD })
    assert.equal(login.status, 303, login.body)
    const consent = await browser.get(String(login.headers.location))
    assert.match(consent.body, /Allow/)
  }
  const allowed = await browser.submit('/oauth/authorize', { decision: 'allow' })
  assert.equal(allowed.status, 303, allowed.body)
  return new URL(String(allowed.headers.location))
}

/** An account with a password and a public client, and the PKCE authorization request it sends. */
export async function publicClientSetup(api: TestApp, scope = 'account:read_only vpc:read_write') {
  const owner = await createAccount(api)
  await givePassword(api, owner)
  const client = await createOAuthClient(api, owner, { public: true })
  const pkce = pkcePair()
  const params = {
    client_id: client.id,
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope,
    state: 'st-123',
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
  }
  return { owner, client, pkce, params, browser: new FakeBrowser(api) }
}
