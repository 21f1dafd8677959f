import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { DEFAULT_PHONE_SEND_LIMITS } from '../../../../src/modules/profile/phone/phone-send-limits.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'
import { CapturingSender } from '../profile-helpers.ts'

const COOLDOWN_MS = DEFAULT_PHONE_SEND_LIMITS.cooldownSeconds * 1000

describe('phone code sending limits', () => {
  const sender = new CapturingSender()
  const api = useTestApp({ phoneSender: sender })
  let lastNumber = 100
  /** A fresh fictional number (555-01xx) per case, so cases do not share a number's limits. */
  const freshNumber = () => ({ iso_code: 'US', phone_number: `(201) 555-0${++lastNumber}` })

  const send = (who: TestUser, payload: object) =>
    api.request({ method: 'POST', url: '/v4/profile/phone-number', headers: who.headers, payload })
  const sentTo = (who: TestUser) => sender.messages.filter((m) => m.username === who.user.username).length

  it('a user waits a cooldown between codes, resends included, and is told how long', async () => {
    const owner = await createAccount(api)
    const number = freshNumber()
    assert.equal((await send(owner, number)).status, 200)
    api.clock.advance(10_000)
    const refused = await send(owner, number)
    assert.equal(refused.status, 429)
    assert.deepEqual(refused.body, {
      errors: [
        {
          field: 'phone_number',
          reason: `Please wait ${DEFAULT_PHONE_SEND_LIMITS.cooldownSeconds} seconds before requesting another verification code`,
        },
      ],
    })
    // The clock runs on between the two sends: a second or two may have passed besides the ten.
    const retryAfter = Number(refused.headers['retry-after'])
    const left = DEFAULT_PHONE_SEND_LIMITS.cooldownSeconds - 10
    assert.ok(retryAfter <= left && retryAfter >= left - 3, String(retryAfter))
    assert.equal((await send(owner, freshNumber())).status, 429, 'another number does not skip the wait')
    assert.equal(sentTo(owner), 1)
    api.clock.advance(COOLDOWN_MS)
    assert.equal((await send(owner, number)).status, 200)
    assert.equal(sentTo(owner), 2)
  })

  it('a number waits a cooldown whoever asks', async () => {
    const number = freshNumber()
    const first = await createAccount(api)
    const second = await createAccount(api)
    assert.equal((await send(first, number)).status, 200)
    assert.equal((await send(second, number)).status, 429)
    assert.equal(sentTo(second), 0)
  })

  it('a user and a number get a limited number of codes a day', async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < DEFAULT_PHONE_SEND_LIMITS.perUserPerDay; i++) {
      assert.equal((await send(owner, freshNumber())).status, 200, `send ${i}`)
      api.clock.advance(COOLDOWN_MS)
    }
    const refused = await send(owner, freshNumber())
    assert.equal(refused.status, 429)
    assert.equal(
      refused.body.errors[0].reason,
      'Too many verification codes were requested today; try again later',
    )
    assert.ok(Number(refused.headers['retry-after']) > 20 * 3600)
    assert.equal(sentTo(owner), DEFAULT_PHONE_SEND_LIMITS.perUserPerDay)

    const number = freshNumber()
    for (let i = 0; i < DEFAULT_PHONE_SEND_LIMITS.perNumberPerDay; i++) {
      assert.equal((await send(await createAccount(api), number)).status, 200, `send ${i}`)
      api.clock.advance(COOLDOWN_MS)
    }
    assert.equal((await send(await createAccount(api), number)).status, 429)

    api.clock.advance(24 * 3600 * 1000)
    assert.equal((await send(owner, freshNumber())).status, 200, 'a day later the user may again')
    assert.equal((await send(await createAccount(api), number)).status, 200, 'and the number may receive')
  })

  it('a failed delivery does not count', async () => {
    const owner = await createAccount(api)
    const number = freshNumber()
    sender.failNext = true
    assert.equal((await send(owner, number)).status, 503)
    assert.equal((await send(owner, number)).status, 200)
  })
})

describe('the server-wide daily cap on phone codes', () => {
  const sender = new CapturingSender()
  const api = useTestApp({
    phoneSender: sender,
    phoneSendLimits: { ...DEFAULT_PHONE_SEND_LIMITS, perDay: 3 },
  })

  it('stops every user once the server has sent its daily codes', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await api.request({
        method: 'POST',
        url: '/v4/profile/phone-number',
        headers: (await createAccount(api)).headers,
        payload: { iso_code: 'US', phone_number: `(201) 555-017${i}` },
      })
      assert.equal(res.status, 200)
    }
    const refused = await api.request({
      method: 'POST',
      url: '/v4/profile/phone-number',
      headers: (await createAccount(api)).headers,
      payload: { iso_code: 'US', phone_number: '(201) 555-0180' },
    })
    assert.equal(refused.status, 429)
    assert.deepEqual(refused.body.errors, [
      { reason: 'Verification codes cannot be sent right now; try again later' },
    ])
    assert.equal(sender.messages.length, 3)
  })
})
