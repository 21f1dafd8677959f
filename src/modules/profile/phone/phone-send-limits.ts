import { TooManyRequests } from '../../../common/errors.ts'
import { addSeconds } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import * as repo from './phone.repository.ts'

/** How often SMS codes may be sent; every send, a resend too, counts. */
export interface PhoneSendLimits {
  /** Seconds between two codes to one user, and to one number (whoever asks). */
  cooldownSeconds: number
  /** Codes one user may have sent in 24 hours. */
  perUserPerDay: number
  /** Codes one number may receive in 24 hours. */
  perNumberPerDay: number
  /** Codes the whole server sends in 24 hours: a bound on what its SMS gateway can be made to cost. */
  perDay: number
}

export const DEFAULT_PHONE_SEND_LIMITS: PhoneSendLimits = {
  cooldownSeconds: 60,
  perUserPerDay: 10,
  perNumberPerDay: 10,
  perDay: 1000,
}

const DAY_SECONDS = 24 * 60 * 60

const secondsBetween = (from: string, to: string) => (Date.parse(`${to}Z`) - Date.parse(`${from}Z`)) / 1000

/**
 * Refuses a send over a cooldown or a 24-hour cap with 429 and the wait in `Retry-After`; else
 * records it and returns its id (a send that then fails is forgotten by the caller). Runs in the
 * sending transaction, which holds the user's lock, so one user's sends are counted one at a time;
 * sends by different users to one number may pass its limits by the few that race.
 */
export async function takeSendAllowance(
  db: Db,
  who: { userId: number; phoneNumber: string },
  now: string,
  limits: PhoneSendLimits,
): Promise<number> {
  const since = addSeconds(now, -DAY_SECONDS)
  await repo.pruneSends(db, since)
  const sends = await repo.sendsBetween(db, who, { since, until: now })
  const waitFor = (from: string | null, seconds: number) =>
    from === null ? seconds : seconds - secondsBetween(from, now)
  for (const latest of [sends.user.latest, sends.number.latest]) {
    if (latest !== null && secondsBetween(latest, now) < limits.cooldownSeconds) {
      throw new TooManyRequests(
        `Please wait ${limits.cooldownSeconds} seconds before requesting another verification code`,
        waitFor(latest, limits.cooldownSeconds),
        'phone_number',
      )
    }
  }
  const userFull = sends.user.count >= limits.perUserPerDay
  if (userFull || sends.number.count >= limits.perNumberPerDay) {
    throw new TooManyRequests(
      'Too many verification codes were requested today; try again later',
      waitFor(userFull ? sends.user.oldest : sends.number.oldest, DAY_SECONDS),
      'phone_number',
    )
  }
  if (sends.all.count >= limits.perDay) {
    throw new TooManyRequests(
      'Verification codes cannot be sent right now; try again later',
      waitFor(sends.all.oldest, DAY_SECONDS),
    )
  }
  return repo.recordSend(db, { user_id: who.userId, phone_number: who.phoneNumber, sent: now })
}

export const forgetSend = repo.forgetSend
