import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount } from '../../../helpers/factories.ts'
import { answerSecurityQuestions, authenticatorCode, requestTfaSecret } from '../profile-helpers.ts'

/**
 * Two-factor turned off by several requests at once: each waits for the user's lock, then finds it
 * off already (the request's own copy of the user, read before, said on): one event.
 */
describe('profile: two-factor disabled by several requests at once', () => {
  const api = useTestApp()

  it('records one tfa_disabled event', async () => {
    const owner = await createAccount(api)
    await answerSecurityQuestions(api, owner)
    const issued = await requestTfaSecret(api, owner)
    const confirmed = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable-confirm',
      headers: owner.headers,
      payload: { tfa_code: await authenticatorCode(issued.secret, api.clock) },
    })
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
    const results = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.request({ method: 'POST', url: '/v4/profile/tfa-disable', headers: owner.headers }),
      ),
    )
    assert.deepEqual(
      results.map((r) => r.status),
      Array(6).fill(200),
    )
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events?page_size=500',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'tfa_disabled' }) },
    })
    assert.equal(events.body.data.length, 1)
  })
})
