import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds } from '../../../src/common/time.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { FakeBrowser, givePassword, PASSWORD, pkcePair, REDIRECT } from '../login/login-helpers.ts'
import { createOAuthClient } from '../oauth-clients/oauth-client-fixtures.ts'
import { answerSecurityQuestions, CapturingSender } from '../profile/profile-helpers.ts'
import { type ControlApp, useControlApp } from './control-app.ts'

/**
 * The time-based rules of the profile and the login service, with time moved the way a test
 * against a running server moves it: `POST /_cloudplane/clock/advance`. Each rule is checked just
 * before its boundary (still valid) and past it (refused, with the answer a client gets).
 */
describe('time-based rules under the control clock', () => {
  const sender = new CapturingSender()
  const api = useControlApp({ phoneSender: sender })

  const advance = async (by: string) => {
    const res = await api.admin('POST', '/clock/advance', { by })
    assert.equal(res.status, 200, JSON.stringify(res.body))
  }
  const get = (who: TestUser, url: string) => api.request({ method: 'GET', url, headers: who.headers })
  const post = (who: TestUser, url: string, payload?: object) =>
    api.request({ method: 'POST', url, headers: who.headers, ...(payload !== undefined && { payload }) })
  const NOT_FOUND = { errors: [{ reason: 'Not found' }] }

  it('a phone code verifies for 10 minutes and is refused after them', async () => {
    const early = await createAccount(api)
    assert.equal(
      (await post(early, '/v4/profile/phone-number', { iso_code: 'US', phone_number: '201-555-0142' }))
        .status,
      200,
    )
    await advance('9m')
    const inTime = await post(early, '/v4/profile/phone-number/verify', {
      otp_code: sender.lastFor(early.user.username).code,
    })
    assert.equal(inTime.status, 200, JSON.stringify(inTime.body))
    assert.equal((await get(early, '/v4/profile')).body.verified_phone_number, '+12015550142')

    const late = await createAccount(api)
    assert.equal(
      (await post(late, '/v4/profile/phone-number', { iso_code: 'US', phone_number: '201-555-0143' })).status,
      200,
    )
    await advance('10m')
    const tooLate = await post(late, '/v4/profile/phone-number/verify', {
      otp_code: sender.lastFor(late.user.username).code,
    })
    assert.equal(tooLate.status, 400)
    assert.deepEqual(tooLate.body, {
      errors: [{ reason: 'The verification code has expired; request a new one', field: 'otp_code' }],
    })
    assert.equal((await get(late, '/v4/profile')).body.verified_phone_number, null)
  })

  it('a login stays in the profile for 90 days, then leaves the list and its own URL', async () => {
    const owner = await createAccount(api)
    await givePassword(api, owner)
    const browser = new FakeBrowser(api)
    await browser.get('/login')
    const signedIn = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(signedIn.status, 303, signedIn.body)
    const logins = await get(owner, '/v4/profile/logins')
    assert.equal(logins.body.results, 1)
    const login = logins.body.data[0]

    await advance('89d23h')
    assert.deepEqual((await get(owner, '/v4/profile/logins')).body.data, [login])
    assert.deepEqual((await get(owner, `/v4/profile/logins/${login.id}`)).body, login)

    await advance('1h1m')
    const after = await get(owner, '/v4/profile/logins')
    assert.equal(after.status, 200)
    assert.deepEqual(after.body, { data: [], page: 1, pages: 1, results: 0 })
    const gone = await get(owner, `/v4/profile/logins/${login.id}`)
    assert.equal(gone.status, 404)
    assert.deepEqual(gone.body, NOT_FOUND)
  })

  /** A user with a password and two-factor on, confirmed with the code the control API gives. */
  async function twoFactorUser(app: ControlApp) {
    const owner = await createAccount(app)
    await givePassword(app, owner)
    await answerSecurityQuestions(app, owner)
    assert.equal((await post(owner, '/v4/profile/tfa-enable')).status, 200)
    const codes = await app.admin('GET', `/users/${owner.user.username}/tfa-code`)
    const confirmed = await post(owner, '/v4/profile/tfa-enable-confirm', { tfa_code: codes.body.pending })
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
    // The code just used is spent: the next one comes from the next 30-second step.
    await advance('30s')
    return owner
  }

  it('a trusted device skips the code for 30 days; then it is gone and the code is asked again', async () => {
    const owner = await twoFactorUser(api)
    const client = await createOAuthClient(api, owner, { public: true })
    const authorize = `/oauth/authorize?${new URLSearchParams({
      client_id: client.id,
      redirect_uri: REDIRECT,
      response_type: 'code',
      code_challenge: pkcePair().challenge,
      code_challenge_method: 'S256',
    })}`
    const browser = new FakeBrowser(api)
    const signIn = async () => {
      browser.cookies.delete('cloudplane_login')
      await browser.get(authorize)
      const res = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
      assert.equal(res.status, 303, res.body)
      return (await browser.get(String(res.headers.location))).body as string
    }
    assert.match(await signIn(), /Two-factor authentication/)
    const code = (await api.admin('GET', `/users/${owner.user.username}/tfa-code`)).body.enabled
    const trusted = await browser.submit('/login/two-factor', { code, trust: 'yes' })
    assert.equal(trusted.status, 303, trusted.body)
    const devices = await get(owner, '/v4/profile/devices')
    assert.equal(devices.body.results, 1)
    const device = devices.body.data[0]
    assert.equal(device.expiry, addSeconds(device.created, 30 * 24 * 3600))

    await advance('29d')
    assert.match(await signIn(), /Allow/)
    assert.equal((await get(owner, `/v4/profile/devices/${device.id}`)).status, 200)

    await advance('1d')
    const after = await get(owner, '/v4/profile/devices')
    assert.deepEqual(after.body, { data: [], page: 1, pages: 1, results: 0 })
    const gone = await get(owner, `/v4/profile/devices/${device.id}`)
    assert.equal(gone.status, 404)
    assert.deepEqual(gone.body, NOT_FOUND)
    assert.match(await signIn(), /Two-factor authentication/)
  })

  it('the code step after the password lasts 10 minutes', async () => {
    const owner = await twoFactorUser(api)
    const browser = new FakeBrowser(api)
    await browser.get('/login')
    const password = await browser.submit('/login', { username: owner.user.username, password: PASSWORD })
    assert.equal(password.status, 303)
    // The page the browser lands on carries the form's CSRF field.
    await browser.get(String(password.headers.location))
    await advance('10m')
    const code = (await api.admin('GET', `/users/${owner.user.username}/tfa-code`)).body.enabled
    const late = await browser.submit('/login/two-factor', { code })
    // No session waits for a code any more: back to the start, nobody signed in.
    assert.equal(late.status, 303)
    assert.match((await browser.get(String(late.headers.location))).body, /name="password"/)
    assert.equal((await get(owner, '/v4/profile/logins')).body.results, 0)
  })

  it('a two-factor secret confirms within its 15 minutes and is refused after them', async () => {
    const prepared = async () => {
      const owner = await createAccount(api)
      await answerSecurityQuestions(api, owner)
      const issued = await post(owner, '/v4/profile/tfa-enable')
      assert.equal(issued.status, 200)
      return owner
    }
    const confirm = async (owner: TestUser) => {
      const codes = await api.admin('GET', `/users/${owner.user.username}/tfa-code`)
      return post(owner, '/v4/profile/tfa-enable-confirm', { tfa_code: codes.body.pending })
    }
    const inTime = await prepared()
    await advance('14m')
    assert.equal((await confirm(inTime)).status, 200)
    assert.equal((await get(inTime, '/v4/profile')).body.two_factor_auth, true)

    const late = await prepared()
    await advance('15m')
    const refused = await confirm(late)
    assert.equal(refused.status, 400)
    assert.deepEqual(refused.body, {
      errors: [{ reason: 'Your two factor secret has expired; request a new one with /profile/tfa-enable' }],
    })
    assert.equal((await get(late, '/v4/profile')).body.two_factor_auth, false)
  })
})
