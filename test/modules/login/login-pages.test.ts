import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, uniqueName } from '../../helpers/factories.ts'
import { createOAuthClient } from '../oauth-clients/oauth-client-fixtures.ts'
import { authenticatorCode } from '../profile/profile-helpers.ts'
import {
  authorizeQuery,
  enableTwoFactor,
  FakeBrowser,
  givePassword,
  PASSWORD,
  pkcePair,
  REDIRECT,
} from './login-helpers.ts'

const REFUSED = 'The username or password is incorrect.'

describe('login pages', () => {
  const api = useTestApp()

  async function setup(options: { twoFactor?: boolean } = {}) {
    const owner = await createAccount(api)
    await givePassword(api, owner)
    const tfa = options.twoFactor ? await enableTwoFactor(api, owner) : undefined
    const client = await createOAuthClient(api, owner, { public: true })
    const params = {
      client_id: client.id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      scope: 'account:read_write',
      state: 'abc',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    }
    return { owner, tfa, client, url: authorizeQuery(params) }
  }

  it('serves an accessible form with HttpOnly, SameSite cookies and a strict policy', async () => {
    const { url } = await setup()
    const browser = new FakeBrowser(api)
    const page = await browser.get(url)
    assert.equal(page.status, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
    assert.match(page.body, /<html lang="en">/)
    assert.match(page.body, /<label for="username">Username<\/label>/)
    assert.match(page.body, /<label for="password">Password<\/label>/)
    assert.match(page.body, /id="username"[^>]*autofocus/)
    assert.doesNotMatch(page.body, /<script/)
    assert.match(String(page.headers['content-security-policy']), /frame-ancestors 'none'/)
    const cookie = String(page.headers['set-cookie'])
    assert.match(cookie, /HttpOnly/)
    assert.match(cookie, /SameSite=Lax/)
    assert.doesNotMatch(cookie, /Secure/)
  })

  it('answers a wrong password and an unknown user alike, and records the failure for the real user', async () => {
    const { owner, url } = await setup()
    const browser = new FakeBrowser(api)
    await browser.get(url)
    const wrong = await browser.submit('/login', {
      username: owner.user.username,
      password: 'not the password',
    })
    assert.equal(wrong.status, 401)
    assert.match(wrong.body, new RegExp(REFUSED))
    await browser.get(url)
    const unknown = await browser.submit('/login', {
      username: uniqueName('ghost'),
      password: 'whatever-it-is',
    })
    assert.equal(unknown.status, 401)
    const strip = (html: string) => html.replace(/value="[^"]*"/g, '')
    assert.equal(strip(unknown.body), strip(wrong.body))
    const failed = await api.db
      .selectFrom('logins')
      .select(['status', 'ip', 'username', 'restricted'])
      .where('user_id', '=', owner.user.id)
      .execute()
    assert.deepEqual(failed, [
      { status: 'failed', ip: '203.0.113.10', username: owner.user.username, restricted: false },
    ])
    // The profile lists successful logins only.
    const listed = await api.request({ method: 'GET', url: '/v4/profile/logins', headers: owner.headers })
    assert.equal(listed.body.results, 0)
  })

  it('locks a username out after five failures and says until when; the right password then waits too', async () => {
    const { owner, url } = await setup()
    const browser = new FakeBrowser(api, '198.51.100.7')
    let last = await browser.get(url)
    for (let i = 0; i < 5; i++) {
      await browser.get(url)
      last = await browser.submit('/login', {
        username: owner.user.username,
        password: `wrong-${i}-password`,
      })
    }
    assert.equal(last.status, 429)
    assert.match(last.body, /locked until \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC/)
    await browser.get(url)
    const right = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(right.status, 429)
    // Every attempt is on record, the refused one during the lockout too.
    const failed = await api.db
      .selectFrom('logins')
      .select('status')
      .where('user_id', '=', owner.user.id)
      .execute()
    assert.deepEqual(
      failed.map((l) => l.status),
      Array(6).fill('failed'),
    )
    api.clock.advance(16 * 60 * 1000)
    await browser.get(url)
    const later = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(later.status, 303)
  })

  it('holds a burst of guesses sent at once to the same five checks, then locks the name out', async () => {
    const { owner, url } = await setup()
    const browsers = Array.from({ length: 20 }, (_, i) => new FakeBrowser(api, `198.51.100.${i + 1}`))
    await Promise.all(browsers.map((b) => b.get(url)))
    const replies = await Promise.all(
      browsers.map((b, i) =>
        b.submit('/login', { username: owner.user.username, password: `wrong-${i}-pass` }),
      ),
    )
    const statuses = replies.map((r) => r.status)
    // Five are checked and the rest are not: the sixth locks the name out. Checked ones that end
    // after that are answered with the lockout too, so four are refused as wrong at most.
    assert.ok(
      statuses.every((s) => s === 401 || s === 429),
      statuses.join(','),
    )
    assert.ok(statuses.filter((s) => s === 401).length <= 4, statuses.join(','))
    const right = new FakeBrowser(api, '203.0.113.200')
    await right.get(url)
    assert.equal(
      (await right.submit('/login', { username: owner.user.username, password: PASSWORD })).status,
      429,
    )
  })

  it('a successful sign-in does not count against its address', async () => {
    const { owner, url } = await setup()
    const browser = new FakeBrowser(api, '192.0.2.77')
    for (let i = 0; i < 25; i++) {
      await browser.get(url)
      const signedIn = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
      assert.equal(signedIn.status, 303, `sign-in ${i + 1}`)
    }
  })

  it('locks an address out after twenty failures, whatever names it tries', async () => {
    const { owner, url } = await setup()
    const browser = new FakeBrowser(api, '192.0.2.99')
    let last = await browser.get(url)
    for (let i = 0; i < 20; i++) {
      await browser.get(url)
      last = await browser.submit('/login', { username: uniqueName('guess'), password: 'not-a-password' })
    }
    assert.equal(last.status, 429)
    await browser.get(url)
    const right = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(right.status, 429)
    const elsewhere = new FakeBrowser(api, '192.0.2.100')
    await elsewhere.get(url)
    const fine = await elsewhere.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(fine.status, 303)
  })

  it('sends the browser on only to an authorization request of this server', async () => {
    const { owner } = await setup()
    const browser = new FakeBrowser(api)
    await browser.get('/login?next=https://evil.example/')
    assert.equal(browser.hiddenFields().next, '/login/done')
    const res = await browser.post('/login', {
      csrf: browser.csrf(),
      next: '//evil.example/oauth/authorize?x',
      username: owner.user.username,
      password: PASSWORD,
    })
    assert.equal(res.status, 303)
    assert.equal(res.headers.location, '/login/done')
    const done = await browser.get('/login/done')
    assert.match(done.body, new RegExp(`You are signed in as ${owner.user.username}`))
  })

  it('refuses a login form without its CSRF field', async () => {
    const { owner, url } = await setup()
    const browser = new FakeBrowser(api)
    await browser.get(url)
    const res = await browser.post('/login', { username: owner.user.username, password: PASSWORD, csrf: 'x' })
    assert.equal(res.status, 403)
    assert.equal(res.headers.location, undefined)
  })

  it('asks for the code after the password, accepts a TOTP code once, and records a successful login', async () => {
    const { owner, tfa, url } = await setup({ twoFactor: true })
    assert.ok(tfa)
    const browser = new FakeBrowser(api)
    await browser.get(url)
    const login = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(login.status, 303)
    const codePage = await browser.get(String(login.headers.location))
    assert.match(codePage.body, /<label for="code">Code<\/label>/)
    assert.match(codePage.body, /Trust this computer for 30 days/)
    const wrong = await browser.submit('/login/two-factor', { code: '000000' })
    assert.equal(wrong.status, 401)
    assert.match(wrong.body, /incorrect/)
    const code = await authenticatorCode(tfa.secret, api.clock)
    const right = await browser.submit('/login/two-factor', { code })
    assert.equal(right.status, 303)
    const consent = await browser.get(String(right.headers.location))
    assert.match(consent.body, /View and change your account and profile/)
    const logins = await api.request({ method: 'GET', url: '/v4/profile/logins', headers: owner.headers })
    assert.equal(logins.body.results, 1)
    assert.equal(logins.body.data[0].status, 'successful')
    // The same code again, from another browser: refused.
    const other = new FakeBrowser(api)
    await other.get(url)
    const again = await other.submit('/login', { username: owner.user.username, password: PASSWORD })
    await other.get(String(again.headers.location))
    const replay = await other.submit('/login/two-factor', { code })
    assert.equal(replay.status, 401)
  })

  it('counts wrong codes against the name even when the password is entered again in between', async () => {
    const { owner, url } = await setup({ twoFactor: true })
    const statuses: number[] = []
    for (let round = 0; round < 3; round++) {
      const browser = new FakeBrowser(api, `198.51.100.${round + 10}`)
      await browser.get(url)
      const login = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
      statuses.push(login.status)
      if (login.status !== 303) break
      await browser.get(String(login.headers.location))
      for (let i = 0; i < 3; i++)
        statuses.push((await browser.submit('/login/two-factor', { code: '000000' })).status)
    }
    // Five wrong codes in the window lock the name out: the fifth is answered with the lockout,
    // and so is the password after it.
    assert.deepEqual(statuses, [303, 401, 401, 401, 303, 401, 429, 429, 429])
  })

  it('accepts the scratch code once', async () => {
    const { owner, tfa, url } = await setup({ twoFactor: true })
    assert.ok(tfa)
    for (const expected of [303, 401]) {
      const browser = new FakeBrowser(api)
      await browser.get(url)
      const login = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
      await browser.get(String(login.headers.location))
      const res = await browser.submit('/login/two-factor', { code: tfa.scratch })
      assert.equal(res.status, expected)
    }
  })

  it('trusting the computer makes a device; it then skips the code until revoked', async () => {
    const { owner, tfa, url } = await setup({ twoFactor: true })
    assert.ok(tfa)
    const browser = new FakeBrowser(api)
    await browser.get(url)
    const login = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    await browser.get(String(login.headers.location))
    const trusted = await browser.submit('/login/two-factor', {
      code: await authenticatorCode(tfa.secret, api.clock),
      trust: 'yes',
    })
    assert.equal(trusted.status, 303)
    assert.match(
      String(trusted.headers['set-cookie']),
      /cloudplane_device=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=2592000/,
    )
    const devices = await api.request({ method: 'GET', url: '/v4/profile/devices', headers: owner.headers })
    assert.equal(devices.body.results, 1)
    assert.equal(devices.body.data[0].user_agent, 'FakeBrowser/1.0')
    assert.equal(devices.body.data[0].last_remote_addr, '203.0.113.10')

    const signInAgain = async () => {
      browser.cookies.delete('cloudplane_login')
      await browser.get(url)
      const res = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
      return browser.get(String(res.headers.location))
    }
    assert.match((await signInAgain()).body, /Allow/)
    const revoke = await api.request({
      method: 'DELETE',
      url: `/v4/profile/devices/${devices.body.data[0].id}`,
      headers: owner.headers,
    })
    assert.equal(revoke.status, 200)
    assert.match((await signInAgain()).body, /Two-factor authentication/)
  })
})
