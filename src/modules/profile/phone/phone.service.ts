import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { ApiError, badRequest, ErrorCollector } from '../../../common/errors.ts'
import { randomInt } from '../../../common/random.ts'
import { addSeconds, nowTimestamp } from '../../../common/time.ts'
import { findVerifiedPhoneNumber, lockUser, setVerifiedPhoneNumber } from '../../users/users.service.ts'
import { type SecretBox, sameText } from '../secrets/secret-box.ts'
import * as repo from './phone.repository.ts'
import { isCountryCode, toE164 } from './phone-number.ts'
import { forgetSend, type PhoneSendLimits, takeSendAllowance } from './phone-send-limits.ts'
import type { PhoneCodeSender } from './phone-senders.ts'

/** A code works for 10 minutes (API document, Limits). */
export const PHONE_CODE_LIFETIME_SECONDS = 10 * 60
/** Wrong guesses allowed per code; then the code is void and a new one must be requested. */
export const PHONE_CODE_MAX_ATTEMPTS = 5

const codeContext = (userId: number) => `phone:${userId}`

const newCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0')

/**
 * POST /profile/phone-number: a 6-digit code for a valid number of the given country. Asking
 * again for the same number before the code expires sends the same code (with the time it has
 * left, and without resetting the wrong-guess count). A verified number must be deleted first.
 * The code is sent after the commit; a failed delivery is a 503 and the next request resends it.
 * Every send, a resend too, counts against the cooldowns and daily caps (phone-send-limits.ts).
 */
export async function sendPhoneCode(
  ctx: RequestContext,
  services: { box: SecretBox; sender: PhoneCodeSender; limits: PhoneSendLimits },
  body: { iso_code: string; phone_number: string },
): Promise<void> {
  const { clock, actor } = ctx
  const { box, sender, limits } = services
  const errors = new ErrorCollector()
  const userId = actor.user.id
  let phoneNumber: string | undefined
  if (!isCountryCode(body.iso_code)) {
    errors.add('iso_code must be a two-letter ISO 3166 country code', 'iso_code')
  } else {
    phoneNumber = toE164(body.phone_number, body.iso_code)
    if (phoneNumber === undefined) {
      errors.add(`Not a valid phone number for ${body.iso_code.toUpperCase()}`, 'phone_number')
    }
  }
  errors.throwIfAny()
  const number = phoneNumber as string
  const { sendId, message } = await inContextTransaction(ctx, async ({ db: trx }) => {
    await lockUser(trx, userId)
    if ((await findVerifiedPhoneNumber(trx, userId)) !== null) {
      throw badRequest(
        'A verified phone number is already on your profile; delete it before adding another',
        'phone_number',
      )
    }
    const now = nowTimestamp(clock)
    const sendId = await takeSendAllowance(trx, { userId, phoneNumber: number }, now, limits)
    const pending = await repo.findVerification(trx, userId)
    if (pending !== undefined && pending.phone_number === number && pending.expiry > now) {
      const code = box.open('phone-code', pending.code_sealed, codeContext(userId))
      if (code !== undefined) return { sendId, message: { code, expiry: pending.expiry } }
    }
    const code = newCode()
    const expiry = addSeconds(now, PHONE_CODE_LIFETIME_SECONDS)
    await repo.saveVerification(trx, {
      user_id: userId,
      phone_number: number,
      code_sealed: box.seal('phone-code', code, codeContext(userId)),
      expiry,
      attempts: 0,
      created: now,
    })
    return { sendId, message: { code, expiry } }
  })
  try {
    await sender.send({ username: actor.user.username, phoneNumber: number, ...message })
  } catch {
    await forgetSend(ctx.db, sendId)
    throw new ApiError('unavailable', [
      { reason: 'The verification code could not be sent; try again shortly', field: 'phone_number' },
    ])
  }
}

type VerifyOutcome = 'verified' | 'none' | 'expired' | 'wrong' | 'exhausted'

/**
 * POST /profile/phone-number/verify: only the requesting user's current code counts. Wrong
 * guesses are counted (and committed) before the refusal; the fifth voids the code.
 */
export async function verifyPhoneCode(ctx: RequestContext, box: SecretBox, otpCode: string): Promise<void> {
  const { clock } = ctx
  const userId = ctx.actor.user.id
  const outcome = await inContextTransaction(ctx, async ({ db: trx }): Promise<VerifyOutcome> => {
    await lockUser(trx, userId)
    const pending = await repo.findVerification(trx, userId)
    if (pending === undefined) return 'none'
    if (pending.expiry <= nowTimestamp(clock)) {
      await repo.deleteVerification(trx, userId)
      return 'expired'
    }
    const code = box.open('phone-code', pending.code_sealed, codeContext(userId))
    if (code !== undefined && sameText(code, otpCode)) {
      await setVerifiedPhoneNumber(trx, userId, pending.phone_number)
      await repo.deleteVerification(trx, userId)
      return 'verified'
    }
    if (pending.attempts + 1 >= PHONE_CODE_MAX_ATTEMPTS) {
      await repo.deleteVerification(trx, userId)
      return 'exhausted'
    }
    await repo.countAttempt(trx, userId)
    return 'wrong'
  })
  switch (outcome) {
    case 'verified':
      return
    case 'none':
      throw badRequest(
        'No verification code is pending; request one with POST /profile/phone-number',
        'otp_code',
      )
    case 'expired':
      throw badRequest('The verification code has expired; request a new one', 'otp_code')
    case 'exhausted':
      throw badRequest('Too many incorrect codes; request a new verification code', 'otp_code')
    case 'wrong':
      throw badRequest('Invalid verification code', 'otp_code')
  }
}

/** DELETE /profile/phone-number: opts out of SMS; also drops a verification in progress. */
export async function deletePhoneNumber(ctx: RequestContext): Promise<void> {
  const userId = ctx.actor.user.id
  await inContextTransaction(ctx, async ({ db: trx }) => {
    await lockUser(trx, userId)
    await setVerifiedPhoneNumber(trx, userId, null)
    await repo.deleteVerification(trx, userId)
  })
}
