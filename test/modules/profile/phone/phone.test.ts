import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'
import { CapturingSender, NO_PHONE_SEND_LIMITS } from '../profile-helpers.ts'

describe('phone number verification', () => {
  const sender = new CapturingSender()
  // Verification itself, sending as often as a case needs: phone-send-limits.test.ts tests the limits.
  const api = useTestApp({ phoneSender: sender, phoneSendLimits: NO_PHONE_SEND_LIMITS })

  const send = (who: TestUser, payload: unknown) =>
    api.request({
      method: 'POST',
      url: '/v4/profile/phone-number',
      headers: who.headers,
      payload: payload as object,
    })
  const verify = (who: TestUser, otp_code: string) =>
    api.request({
      method: 'POST',
      url: '/v4/profile/phone-number/verify',
      headers: who.headers,
      payload: { otp_code },
    })
  const profile = async (who: TestUser) =>
    (await api.request({ method: 'GET', url: '/v4/profile', headers: who.headers })).body
  const US = { iso_code: 'US', phone_number: '(201) 555-0123' }

  it('sends a 6-digit code to the number in E.164, then verifies it', async () => {
    const owner = await createAccount(api)
    const before = nowTimestamp(api.clock)
    const res = await send(owner, US)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.deepEqual(res.body, {})
    const message = sender.lastFor(owner.user.username)
    assert.equal(message.phoneNumber, '+12015550123')
    assert.match(message.code, /^[0-9]{6}$/)
    assert.ok(
      message.expiry >= addSeconds(before, 600) && message.expiry <= addSeconds(nowTimestamp(api.clock), 600),
    )
    assert.equal((await profile(owner)).verified_phone_number, null)

    const verified = await verify(owner, message.code)
    assert.equal(verified.status, 200, JSON.stringify(verified.body))
    assert.deepEqual(verified.body, {})
    assert.equal((await profile(owner)).verified_phone_number, '+12015550123')
  })

  it('resends the same code before it expires, a new one after', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    const first = sender.lastFor(owner.user.username)
    await send(owner, { iso_code: 'us', phone_number: '+1 201-555-0123' })
    const again = sender.lastFor(owner.user.username)
    assert.equal(again.code, first.code)
    assert.equal(again.expiry, first.expiry, 'resending does not extend the code')
    api.clock.advance(600_000)
    try {
      const late = await verify(owner, first.code)
      assert.equal(late.status, 400)
      assert.deepEqual(late.body, {
        errors: [{ field: 'otp_code', reason: 'The verification code has expired; request a new one' }],
      })
      await send(owner, US)
      const fresh = sender.lastFor(owner.user.username)
      assert.notEqual(fresh.expiry, first.expiry)
      assert.equal((await verify(owner, fresh.code)).status, 200)
    } finally {
      api.clock.advance(-600_000)
    }
  })

  it('a code for another number replaces the pending one', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    const first = sender.lastFor(owner.user.username)
    await send(owner, { iso_code: 'GB', phone_number: '020 7946 0958' })
    const second = sender.lastFor(owner.user.username)
    assert.equal(second.phoneNumber, '+442079460958')
    if (second.code !== first.code) assert.equal((await verify(owner, first.code)).status, 400)
    assert.equal((await verify(owner, second.code)).status, 200)
    assert.equal((await profile(owner)).verified_phone_number, '+442079460958')
  })

  it('only the user who asked can use the code', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    await send(owner, US)
    const { code } = sender.lastFor(owner.user.username)
    const res = await verify(member, code)
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        {
          field: 'otp_code',
          reason: 'No verification code is pending; request one with POST /profile/phone-number',
        },
      ],
    })
    assert.equal((await profile(member)).verified_phone_number, null)
    assert.equal((await verify(owner, code)).status, 200)
  })

  it('allows five guesses per code, then the code is void', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    const { code } = sender.lastFor(owner.user.username)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 1; i <= 4; i++) {
      const res = await verify(owner, wrong)
      assert.deepEqual(
        res.body,
        { errors: [{ field: 'otp_code', reason: 'Invalid verification code' }] },
        `guess ${i}`,
      )
    }
    const fifth = await verify(owner, wrong)
    assert.deepEqual(fifth.body, {
      errors: [{ field: 'otp_code', reason: 'Too many incorrect codes; request a new verification code' }],
    })
    assert.equal((await verify(owner, code)).status, 400, 'the right code no longer works')
    await send(owner, US)
    const fresh = sender.lastFor(owner.user.username)
    assert.equal((await verify(owner, fresh.code)).status, 200)
  })

  it('resending does not restore guesses', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    const { code } = sender.lastFor(owner.user.username)
    const wrong = code === '000000' ? '111111' : '000000'
    for (let i = 0; i < 4; i++) await verify(owner, wrong)
    await send(owner, US)
    assert.equal(sender.lastFor(owner.user.username).code, code)
    const res = await verify(owner, wrong)
    assert.match(res.body.errors[0].reason, /Too many incorrect codes/)
  })

  it('needs the verified number deleted before another is added', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    await verify(owner, sender.lastFor(owner.user.username).code)
    const res = await send(owner, { iso_code: 'GB', phone_number: '020 7946 0958' })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        {
          field: 'phone_number',
          reason: 'A verified phone number is already on your profile; delete it before adding another',
        },
      ],
    })
    const removed = await api.request({
      method: 'DELETE',
      url: '/v4/profile/phone-number',
      headers: owner.headers,
    })
    assert.equal(removed.status, 200)
    assert.deepEqual(removed.body, {})
    assert.equal((await profile(owner)).verified_phone_number, null)
    assert.equal((await send(owner, { iso_code: 'GB', phone_number: '020 7946 0958' })).status, 200)
  })

  it('deleting also cancels a verification in progress', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    const { code } = sender.lastFor(owner.user.username)
    await api.request({ method: 'DELETE', url: '/v4/profile/phone-number', headers: owner.headers })
    assert.equal((await verify(owner, code)).status, 400)
  })

  it('checks the country code and the number for that country', async () => {
    const owner = await createAccount(api)
    for (const iso_code of ['USA', 'U', '1A', '']) {
      const res = await send(owner, { iso_code, phone_number: '2015550123' })
      assert.deepEqual(res.body, {
        errors: [{ field: 'iso_code', reason: 'iso_code must be a two-letter ISO 3166 country code' }],
      })
    }
    const unknown = await send(owner, { iso_code: 'ZZ', phone_number: '2015550123' })
    assert.equal(unknown.body.errors[0].field, 'iso_code')
    // Possible, not necessarily assigned: the API document's own example is accepted.
    assert.equal((await send(owner, { iso_code: 'US', phone_number: '555-555-5555' })).status, 200)
    for (const [iso_code, phone_number] of [
      ['US', '12'],
      ['US', 'call me'],
      ['US', '+44 20 7946 0958'],
      ['GB', '+1 201 555 0123'],
    ]) {
      const res = await send(owner, { iso_code, phone_number })
      assert.equal(res.status, 400, `${iso_code} ${phone_number}`)
      assert.deepEqual(res.body, {
        errors: [{ field: 'phone_number', reason: `Not a valid phone number for ${iso_code}` }],
      })
    }
    const missing = await send(owner, {})
    assert.deepEqual(
      missing.body.errors.map((e: { field: string }) => e.field),
      ['iso_code', 'phone_number'],
    )
  })

  it('checks the code’s form', async () => {
    const owner = await createAccount(api)
    for (const otp_code of ['12a456', '', ' 123456']) {
      const res = await verify(owner, otp_code)
      assert.deepEqual(res.body, {
        errors: [{ field: 'otp_code', reason: 'The verification code must only contain digits.' }],
      })
    }
  })

  it('answers 503 when the code cannot be delivered; asking again resends the same code', async () => {
    const owner = await createAccount(api)
    sender.failNext = true
    const res = await send(owner, US)
    assert.equal(res.status, 503)
    assert.deepEqual(res.body, {
      errors: [
        { field: 'phone_number', reason: 'The verification code could not be sent; try again shortly' },
      ],
    })
    assert.equal((await send(owner, US)).status, 200)
    assert.equal((await verify(owner, sender.lastFor(owner.user.username).code)).status, 200)
  })

  it('stores the pending code sealed, not in plain text', async () => {
    const owner = await createAccount(api)
    await send(owner, US)
    const { code } = sender.lastFor(owner.user.username)
    const row = await api.db
      .selectFrom('phone_verifications')
      .selectAll()
      .where('user_id', '=', owner.user.id)
      .executeTakeFirstOrThrow()
    assert.ok(!row.code_sealed.includes(code))
    assert.equal(row.phone_number, '+12015550123')
  })

  securitySuite(api, [
    {
      method: 'POST',
      route: '/v4/profile/phone-number',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/phone-number', payload: US }),
    },
    {
      method: 'DELETE',
      route: '/v4/profile/phone-number',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/phone-number' }),
    },
    {
      method: 'POST',
      route: '/v4/profile/phone-number/verify',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 400,
      prepare: async (api, owner) => {
        const res = await api.request({
          method: 'POST',
          url: '/v4/profile/phone-number',
          headers: owner.headers,
          payload: US,
        })
        assert.equal(res.status, 200)
        return {
          url: '/v4/profile/phone-number/verify',
          payload: { otp_code: sender.lastFor(owner.user.username).code },
        }
      },
    },
  ])
})
