import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../../src/common/time.ts'
import { verifyTwoFactorCode } from '../../../../src/modules/profile/two-factor/two-factor.service.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../../../helpers/factories.ts'
import { securitySuite } from '../../../helpers/security-suite.ts'
import {
  alignToStep,
  answerSecurityQuestions,
  authenticatorCode,
  requestTfaSecret,
} from '../profile-helpers.ts'

describe('two-factor authentication', () => {
  const api = useTestApp()

  const confirm = (who: TestUser, tfa_code: string) =>
    api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable-confirm',
      headers: who.headers,
      payload: { tfa_code },
    })
  const profile = async (who: TestUser) =>
    (await api.request({ method: 'GET', url: '/v4/profile', headers: who.headers })).body
  const readyUser = async () => {
    const owner = await createAccount(api)
    await answerSecurityQuestions(api, owner)
    return owner
  }

  it('enables with a code from an authenticator app, then disables', async () => {
    const owner = await readyUser()
    const before = nowTimestamp(api.clock)
    const issued = await requestTfaSecret(api, owner)
    const after = nowTimestamp(api.clock)
    assert.deepEqual(Object.keys(issued), ['secret', 'expiry'])
    assert.match(issued.secret, /^[A-Z2-7]{32}$/, 'a base32 secret of 160 bits')
    assert.ok(
      issued.expiry >= addSeconds(before, 15 * 60) && issued.expiry <= addSeconds(after, 15 * 60),
      'valid for 15 minutes',
    )
    assert.equal((await profile(owner)).two_factor_auth, false, 'not on before confirmation')

    const confirmed = await confirm(owner, await authenticatorCode(issued.secret, api.clock))
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
    assert.deepEqual(Object.keys(confirmed.body), ['scratch'])
    assert.match(confirmed.body.scratch, /^[A-Z2-9]{16}$/)
    assert.equal((await profile(owner)).two_factor_auth, true)

    const disabled = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-disable',
      headers: owner.headers,
    })
    assert.equal(disabled.status, 200)
    assert.deepEqual(disabled.body, {})
    assert.equal((await profile(owner)).two_factor_auth, false)
  })

  it('refuses to enable before the security questions are answered', async () => {
    const owner = await createAccount(api)
    const res = await api.request({ method: 'POST', url: '/v4/profile/tfa-enable', headers: owner.headers })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [
        {
          reason:
            'You must add Security Questions to your profile in order to enable Two Factor Authentication',
        },
      ],
    })
  })

  it('accepts the code one step either side of now, not two', async () => {
    // Early in a step, so no step boundary passes between computing a code and checking it.
    alignToStep(api.clock)
    for (const [offset, accepted] of [
      [-1, true],
      [1, true],
      [-2, false],
      [2, false],
    ] as const) {
      const owner = await readyUser()
      const { secret } = await requestTfaSecret(api, owner)
      const res = await confirm(owner, await authenticatorCode(secret, api.clock, offset))
      assert.equal(res.status, accepted ? 200 : 400, `offset ${offset}`)
    }
  })

  it('refuses a wrong code, a malformed code, and a confirmation with nothing pending', async () => {
    const owner = await readyUser()
    const nothing = await confirm(owner, '123456')
    assert.equal(nothing.status, 400)
    assert.match(nothing.body.errors[0].reason, /No two factor secret is waiting/)
    const { secret } = await requestTfaSecret(api, owner)
    const good = await authenticatorCode(secret, api.clock)
    const wrong = await confirm(owner, good === '000000' ? '000001' : '000000')
    assert.equal(wrong.status, 400)
    assert.deepEqual(wrong.body, { errors: [{ field: 'tfa_code', reason: 'Invalid two factor code' }] })
    for (const code of ['12345', '1234567', 'abcdef', '']) {
      const res = await confirm(owner, code)
      assert.equal(res.status, 400, code)
      assert.deepEqual(res.body, {
        errors: [
          { field: 'tfa_code', reason: 'tfa_code must be the 6-digit code from your authenticator app' },
        ],
      })
    }
    const missing = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable-confirm',
      headers: owner.headers,
      payload: {},
    })
    assert.deepEqual(missing.body, { errors: [{ field: 'tfa_code', reason: 'tfa_code is required' }] })
    assert.equal((await confirm(owner, good)).status, 200, 'failed attempts do not spoil the secret')
  })

  it('refuses a confirmation after the secret’s 15 minutes', async () => {
    const owner = await readyUser()
    const { secret } = await requestTfaSecret(api, owner)
    api.clock.advance(15 * 60 * 1000)
    try {
      const res = await confirm(owner, await authenticatorCode(secret, api.clock))
      assert.equal(res.status, 400)
      assert.match(res.body.errors[0].reason, /expired/)
      assert.equal((await profile(owner)).two_factor_auth, false)
    } finally {
      api.clock.advance(-15 * 60 * 1000)
    }
  })

  it('takes a code once: of two simultaneous confirmations with it, one succeeds', async () => {
    const owner = await readyUser()
    const { secret } = await requestTfaSecret(api, owner)
    const code = await authenticatorCode(secret, api.clock)
    const results = await Promise.all([confirm(owner, code), confirm(owner, code), confirm(owner, code)])
    assert.deepEqual(results.map((r) => r.status).sort(), [200, 400, 400])
    assert.equal((await confirm(owner, code)).status, 400)
  })

  it('resets when already on: a new secret, the old one in force until the new one is confirmed', async () => {
    const owner = await readyUser()
    const first = await requestTfaSecret(api, owner)
    assert.equal((await confirm(owner, await authenticatorCode(first.secret, api.clock))).status, 200)
    const second = await requestTfaSecret(api, owner)
    assert.notEqual(second.secret, first.secret)
    assert.equal((await profile(owner)).two_factor_auth, true, 'still on during the reset')
    api.clock.advance(60_000)
    try {
      assert.equal(
        await verifyTwoFactorCode(
          api.db,
          api.app.secretBox,
          api.clock,
          owner.user.id,
          await authenticatorCode(first.secret, api.clock),
        ),
        true,
        'the confirmed secret keeps working until the new one is confirmed',
      )
      assert.equal((await confirm(owner, await authenticatorCode(second.secret, api.clock))).status, 200)
      api.clock.advance(60_000)
      assert.equal(
        await verifyTwoFactorCode(
          api.db,
          api.app.secretBox,
          api.clock,
          owner.user.id,
          await authenticatorCode(first.secret, api.clock),
        ),
        false,
        'the old secret is gone',
      )
      assert.equal(
        await verifyTwoFactorCode(
          api.db,
          api.app.secretBox,
          api.clock,
          owner.user.id,
          await authenticatorCode(second.secret, api.clock),
        ),
        true,
      )
    } finally {
      api.clock.advance(-120_000)
    }
  })

  it('for the login service: a code works once, the scratch code once, nothing after disable', async () => {
    alignToStep(api.clock)
    const owner = await readyUser()
    const { secret } = await requestTfaSecret(api, owner)
    const { scratch } = (await confirm(owner, await authenticatorCode(secret, api.clock))).body
    const verify = (code: string) =>
      verifyTwoFactorCode(api.db, api.app.secretBox, api.clock, owner.user.id, code)
    assert.equal(
      await verify(await authenticatorCode(secret, api.clock)),
      false,
      'the confirming code was used',
    )
    api.clock.advance(30_000)
    try {
      const next = await authenticatorCode(secret, api.clock)
      assert.equal(await verify(next), true)
      assert.equal(await verify(next), false, 'a code used once cannot be reused')
      assert.equal(await verify(scratch), true)
      assert.equal(await verify(scratch), false, 'the scratch code is one-use')
      await api.request({ method: 'POST', url: '/v4/profile/tfa-disable', headers: owner.headers })
      api.clock.advance(30_000)
      assert.equal(await verify(await authenticatorCode(secret, api.clock)), false)
    } finally {
      api.clock.advance(-60_000)
    }
  })

  it('stores the secret sealed and the scratch code as a digest only', async () => {
    const owner = await readyUser()
    const { secret } = await requestTfaSecret(api, owner)
    const { scratch } = (await confirm(owner, await authenticatorCode(secret, api.clock))).body
    const row = await api.db
      .selectFrom('user_tfa')
      .selectAll()
      .where('user_id', '=', owner.user.id)
      .executeTakeFirstOrThrow()
    const stored = JSON.stringify(row)
    assert.ok(!stored.includes(secret))
    assert.ok(!stored.includes(scratch))
    assert.match(row.scratch_digest ?? '', /^[0-9a-f]{64}$/)
  })

  it('records tfa_enabled and tfa_disabled as profile events; disabling when off changes nothing', async () => {
    const owner = await readyUser()
    const off = await api.request({ method: 'POST', url: '/v4/profile/tfa-disable', headers: owner.headers })
    assert.deepEqual(off.body, {})
    const { secret } = await requestTfaSecret(api, owner)
    await confirm(owner, await authenticatorCode(secret, api.clock))
    await api.request({ method: 'POST', url: '/v4/profile/tfa-disable', headers: owner.headers })
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ 'entity.type': 'profile', '+order_by': 'id', '+order': 'asc' }),
      },
    })
    assert.deepEqual(
      events.body.data.map((e: { action: string }) => e.action),
      ['tfa_enabled', 'tfa_disabled'],
    )
    assert.deepEqual(events.body.data[0].entity, {
      label: owner.user.username,
      id: null,
      type: 'profile',
      url: '/v4/profile',
    })
  })

  it('keeps each user’s secret to themselves', async () => {
    const owner = await readyUser()
    const member = await createUser(api, owner, { restricted: false })
    await answerSecurityQuestions(api, member)
    const { secret } = await requestTfaSecret(api, owner)
    const res = await confirm(member, await authenticatorCode(secret, api.clock))
    assert.equal(res.status, 400)
    assert.equal((await profile(member)).two_factor_auth, false)
  })

  securitySuite(api, [
    {
      method: 'POST',
      route: '/v4/profile/tfa-enable',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 400,
      prepare: async (api, owner) => {
        await answerSecurityQuestions(api, owner)
        return { url: '/v4/profile/tfa-enable' }
      },
    },
    {
      method: 'POST',
      route: '/v4/profile/tfa-enable-confirm',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 400,
      prepare: async (api, owner) => {
        await answerSecurityQuestions(api, owner)
        const { secret } = await requestTfaSecret(api, owner)
        return {
          url: '/v4/profile/tfa-enable-confirm',
          payload: { tfa_code: await authenticatorCode(secret, api.clock) },
        }
      },
    },
    {
      method: 'POST',
      route: '/v4/profile/tfa-disable',
      scopes: ['account:read_write'],
      success: 200,
      restricted: 200,
      prepare: async () => ({ url: '/v4/profile/tfa-disable' }),
    },
  ])
})
