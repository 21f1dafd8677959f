import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { BrowserContext, Page } from 'playwright-core'
import { buildTestApp, type TestApp } from '../../helpers/app.ts'
import { launchChromium } from '../../helpers/chromium.ts'
import { bearer, createAccount, type TestUser } from '../../helpers/factories.ts'
import { type CreatedClient, createOAuthClient } from '../oauth-clients/oauth-client-fixtures.ts'
import { authenticatorCode } from '../profile/profile-helpers.ts'
import { enableTwoFactor, givePassword, PASSWORD, pkcePair, REDIRECT } from './login-helpers.ts'

/**
 * The login service in a real browser (Debian's chromium through playwright-core): keyboard-only
 * sign-in, two-factor, trust, consent, the redirect with a code, and the token at work. The
 * screenshots of the three pages are kept in docs/screenshots (rewritten with
 * UPDATE_SCREENSHOTS=1, or when missing).
 */
const SCREENSHOTS = join(import.meta.dirname, '../../../docs/screenshots')

describe('login service in chromium', () => {
  let api: TestApp
  let base: string
  let browser: Awaited<ReturnType<typeof launchChromium>>
  let context: BrowserContext
  let owner: TestUser
  let tfa: { secret: string; scratch: string }
  let client: CreatedClient
  const consoleErrors: string[] = []

  // Hooks have no timeout of their own: a browser that wedges must fail the file, not hold the
  // whole run (one CI run waited here for over ten minutes, the browser idle, the tests unfinished).
  before(
    async () => {
      api = await buildTestApp()
      await api.app.listen({ host: '127.0.0.1', port: 0 })
      base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
      owner = await createAccount(api, 'ada-lovelace')
      await givePassword(api, owner)
      tfa = await enableTwoFactor(api, owner)
      client = await createOAuthClient(api, owner, { public: true, label: 'Dashboard Pro' })
      browser = await launchChromium()
      context = browser.context
      // The app's callback is answered here: no network leaves the machine.
      await context.route(
        (url) => url.hostname === 'app.example.com',
        (route) =>
          route.fulfill({
            status: 200,
            contentType: 'text/html',
            body: '<!doctype html><title>callback</title>',
          }),
      )
      context.on('page', (page) => watch(page))
    },
    { timeout: 240_000 },
  )

  after(
    async () => {
      await browser?.close()
      await api?.close()
    },
    { timeout: 60_000 },
  )

  function watch(page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text())
    })
    page.on('pageerror', (error) => consoleErrors.push(error.message))
  }

  async function newPage(): Promise<Page> {
    const page = await context.newPage()
    return page
  }

  function authorizeUrl(overrides: Record<string, string | undefined> = {}) {
    const pkce = pkcePair()
    const params: Record<string, string | undefined> = {
      client_id: client.id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'account:read_write vpc:read_write',
      state: 'xyz-42',
      code_challenge: pkce.challenge,
      code_challenge_method: 'S256',
      ...overrides,
    }
    const query = new URLSearchParams(
      Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined),
    )
    return { url: `${base}/oauth/authorize?${query}`, verifier: pkce.verifier }
  }

  /** Saves the page for the README (when asked or missing) and checks that it rendered. */
  async function screenshot(page: Page, name: string) {
    const keep = process.env.UPDATE_SCREENSHOTS === '1' || !existsSync(join(SCREENSHOTS, name))
    const path = keep ? join(SCREENSHOTS, name) : join(mkdtempSync(join(tmpdir(), 'shot-')), name)
    await page.screenshot({ path, fullPage: true })
    const png = readFileSync(path)
    assert.equal(png.subarray(1, 4).toString(), 'PNG')
    assert.ok(statSync(path).size > 5000, `${name} looks empty`)
    assert.ok(existsSync(join(SCREENSHOTS, name)), `${name} is not checked in`)
  }

  async function signIn(page: Page, password = PASSWORD) {
    // The username field has the focus: the whole form works from the keyboard.
    assert.equal(await page.locator(':focus').getAttribute('id'), 'username')
    await page.keyboard.type(owner.user.username)
    await page.keyboard.press('Tab')
    await page.keyboard.type(password)
    await navigating(page, () => page.keyboard.press('Enter'))
  }

  /** Runs an action that submits a form, and waits for the page it leads to. */
  async function navigating(page: Page, action: () => Promise<void>) {
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), action()])
  }

  async function nextCode(): Promise<string> {
    api.clock.advance(30_000)
    return authenticatorCode(tfa.secret, api.clock)
  }

  async function exchange(code: string, verifier: string) {
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        redirect_uri: REDIRECT,
        client_id: client.id,
        code_verifier: verifier,
      }),
    })
    return { status: res.status, body: (await res.json()) as Record<string, string> }
  }

  const apiGet = async (path: string, token: string) => {
    const res = await fetch(`${base}/v4${path}`, { headers: bearer(token) })
    // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
    return { status: res.status, body: (await res.json()) as any }
  }

  it('walks sign-in, two-factor, trust, consent and the code exchange; the token works until the app is revoked', async () => {
    const page = await newPage()
    const { url, verifier } = authorizeUrl()
    await page.goto(url)
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in')
    assert.match((await page.textContent('main')) ?? '', /Dashboard Pro/)
    await screenshot(page, 'login.png')

    await signIn(page)
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Two-factor authentication')
    assert.equal(await page.locator(':focus').getAttribute('id'), 'code')
    await screenshot(page, 'two-factor.png')
    await page.keyboard.type(await nextCode())
    await page.getByLabel('Trust this computer for 30 days').check()
    await navigating(page, () => page.getByRole('button', { name: 'Verify' }).click())

    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Authorize Dashboard Pro')
    const scopes = await page.locator('ul.scopes li').allTextContents()
    assert.deepEqual(scopes, [
      'View and change your account and profile: users, apps, tokens, settings',
      'View and change your VPCs and their subnets',
    ])
    await screenshot(page, 'consent.png')
    await page.getByRole('button', { name: 'Allow' }).click()
    await page.waitForURL(`${REDIRECT}?**`)

    const back = new URL(page.url())
    assert.equal(back.searchParams.get('state'), 'xyz-42')
    const code = back.searchParams.get('code') ?? ''
    const tokens = await exchange(code, verifier)
    assert.equal(tokens.status, 200)
    const token = tokens.body.access_token as string
    const profile = await apiGet('/profile', token)
    assert.equal(profile.status, 200)
    assert.equal(profile.body.username, owner.user.username)

    const apps = await apiGet('/profile/apps', owner.token)
    assert.deepEqual(
      apps.body.data.map((a: { label: string; scopes: string }) => [a.label, a.scopes]),
      [['Dashboard Pro', 'account:read_write vpc:read_write']],
    )
    const devices = await apiGet('/profile/devices', owner.token)
    assert.equal(devices.body.results, 1)
    assert.match(devices.body.data[0].user_agent, /Chrome/)

    // A replayed code is refused.
    assert.equal((await exchange(code, verifier)).body.error, 'invalid_grant')

    const revoke = await fetch(`${base}/v4/profile/apps/${apps.body.data[0].id}`, {
      method: 'DELETE',
      headers: owner.headers,
    })
    assert.equal(revoke.status, 200)
    assert.equal((await apiGet('/profile', token)).status, 401)
    await page.close()
    assert.deepEqual(consoleErrors, [])
  })

  it('a second sign-in from the trusted browser skips two-factor; after the device is revoked it asks again', async () => {
    await context.clearCookies({ name: 'cloudplane_login' })
    const page = await newPage()
    await page.goto(authorizeUrl().url)
    await signIn(page)
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Authorize Dashboard Pro')

    const devices = await apiGet('/profile/devices', owner.token)
    const revoke = await fetch(`${base}/v4/profile/devices/${devices.body.data[0].id}`, {
      method: 'DELETE',
      headers: owner.headers,
    })
    assert.equal(revoke.status, 200)
    await context.clearCookies({ name: 'cloudplane_login' })
    await page.goto(authorizeUrl().url)
    await signIn(page)
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Two-factor authentication')
    await page.close()
    assert.deepEqual(consoleErrors, [])
  })

  it('refuses a wrong password, a wrong code, a foreign redirect URI and a request without PKCE', async () => {
    await context.clearCookies()
    const page = await newPage()
    await page.goto(authorizeUrl().url)
    await signIn(page, 'not my password at all')
    assert.equal(await page.getByRole('alert').textContent(), 'The username or password is incorrect.')
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Sign in')

    await page.getByLabel('Password').fill(PASSWORD)
    await navigating(page, () => page.getByRole('button', { name: 'Sign in' }).click())
    await page.getByLabel('Code').fill('123456')
    await navigating(page, () => page.getByRole('button', { name: 'Verify' }).click())
    assert.equal(
      await page.getByRole('alert').textContent(),
      'The code is incorrect or has already been used.',
    )

    await page.goto(authorizeUrl({ redirect_uri: 'https://evil.example/steal' }).url)
    assert.equal(await page.getByRole('heading', { level: 1 }).textContent(), 'Cannot authorize')
    assert.match(page.url(), /^http:\/\/127\.0\.0\.1/)

    // The browser is sent back to the app with the error (the route handler cannot answer a
    // redirect of a typed-in navigation, so the request itself is what is checked).
    const [sentBack] = await Promise.all([
      page.waitForRequest((request) => request.url().startsWith(`${REDIRECT}?`)),
      page
        .goto(authorizeUrl({ code_challenge: undefined, code_challenge_method: undefined }).url)
        .catch(() => null),
    ])
    const refused = new URL(sentBack.url())
    assert.equal(refused.searchParams.get('error'), 'invalid_request')
    assert.equal(refused.searchParams.get('state'), 'xyz-42')
    assert.equal(refused.searchParams.get('code'), null)
    await page.close()
  })
})
