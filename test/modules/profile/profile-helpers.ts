import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { generate } from 'otplib'
import { type Clock, nowTimestamp } from '../../../src/common/time.ts'
import { issueToken } from '../../../src/modules/auth/issue-token.ts'
import { authorizeApp } from '../../../src/modules/profile/apps/apps.service.ts'
import type { PhoneSendLimits } from '../../../src/modules/profile/phone/phone-send-limits.ts'
import type { PhoneCodeMessage, PhoneCodeSender } from '../../../src/modules/profile/phone/phone-senders.ts'
import type { TestApp } from '../../helpers/app.ts'
import { bearer, type TestUser } from '../../helpers/factories.ts'

/** For suites about verification rather than sending limits: sends as often as a case needs. */
export const NO_PHONE_SEND_LIMITS: PhoneSendLimits = {
  cooldownSeconds: 0,
  perUserPerDay: Number.MAX_SAFE_INTEGER,
  perNumberPerDay: Number.MAX_SAFE_INTEGER,
  perDay: Number.MAX_SAFE_INTEGER,
}

/** A phone code sender that keeps what it was asked to send, for tests to read the codes. */
export class CapturingSender implements PhoneCodeSender {
  readonly messages: PhoneCodeMessage[] = []
  failNext = false

  async send(message: PhoneCodeMessage): Promise<void> {
    if (this.failNext) {
      this.failNext = false
      throw new Error('gateway down')
    }
    this.messages.push(message)
  }

  lastFor(username: string): PhoneCodeMessage {
    const message = this.messages.findLast((m) => m.username === username)
    assert.ok(message, `no code was sent for ${username}`)
    return message
  }
}

/** Answers three security questions through the API, as a user would before enabling two-factor. */
export async function answerSecurityQuestions(api: TestApp, user: TestUser): Promise<void> {
  const res = await api.request({
    method: 'POST',
    url: '/v4/profile/security-questions',
    headers: user.headers,
    payload: {
      security_questions: [
        { question_id: 1, response: 'Springfield' },
        { question_id: 4, response: 'Saab 900' },
        { question_id: 11, response: 'Lisbon' },
      ],
    },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
}

/** What an authenticator app shows for this secret at the app's current time (offset in steps). */
export async function authenticatorCode(secret: string, clock: Clock, stepOffset = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(clock.now().getTime() / 1000) + stepOffset * 30 })
}

/** Requests a TFA secret through the API. */
export async function requestTfaSecret(
  api: TestApp,
  user: TestUser,
): Promise<{ secret: string; expiry: string }> {
  const res = await api.request({ method: 'POST', url: '/v4/profile/tfa-enable', headers: user.headers })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

/** Moves the app clock to the start of a 30-second step, so a test's codes cannot straddle two. */
export function alignToStep(clock: { now(): Date; advance(ms: number): void }): void {
  const ms = clock.now().getTime() % 30_000
  clock.advance(30_000 - ms + 1000)
}

export const withComment = (key: string, comment: string) => `${key} ${comment}`

/** An authorized OAuth app of the user (as the login service will record it) and a token issued to it. */
export async function createOauthToken(
  api: TestApp,
  user: TestUser,
  options: { scopes?: string; clientId?: string; label?: string; expiry?: string | null } = {},
): Promise<{ appId: number; token: string; headers: { authorization: string } }> {
  const scopes = options.scopes ?? '*'
  const app = await authorizeApp(api.db, {
    userId: user.user.id,
    clientId: options.clientId ?? `client-${randomBytes(4).toString('hex')}`,
    label: options.label ?? 'Some App',
    scopes,
    website: 'https://app.example.com',
    thumbnailUrl: 'https://app.example.com/thumbnail.png',
    created: nowTimestamp(api.clock),
    expiry: options.expiry ?? null,
  })
  const { secret } = await issueToken(api.db, {
    userId: user.user.id,
    label: 'oauth',
    scopes,
    created: nowTimestamp(api.clock),
    expiry: null,
    authorizedAppId: app.id,
  })
  return { appId: app.id, token: secret, headers: bearer(secret) }
}
