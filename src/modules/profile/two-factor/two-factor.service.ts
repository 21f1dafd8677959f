import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest } from '../../../common/errors.ts'
import { addSeconds, type Clock, formatTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import { recordEvent } from '../../events/events.service.ts'
import { hasTwoFactorOn, lockUser, setTwoFactorFlag } from '../../users/users.service.ts'
import { profileEntity, profileEvent } from '../profile-events.ts'
import type { SecretBox } from '../secrets/secret-box.ts'
import { hasAnsweredSecurityQuestions } from '../security-questions/security-questions.service.ts'
import { matchTotp, newScratchCode, newTotpSecret } from './totp.ts'
import * as repo from './two-factor.repository.ts'

/** A secret must be confirmed within 15 minutes (docs/decisions.md#two-factor-secret-lifetime). */
export const TFA_SECRET_LIFETIME_SECONDS = 15 * 60

export const SECURITY_QUESTIONS_REQUIRED =
  'You must add Security Questions to your profile in order to enable Two Factor Authentication'

const secretContext = (userId: number) => `tfa:${userId}`

/**
 * POST /profile/tfa-enable: a fresh secret to confirm within 15 minutes. While two-factor is on,
 * this is how it is reset: the secret in force keeps working until the new one is confirmed.
 */
export async function enableTfa(
  ctx: RequestContext,
  box: SecretBox,
): Promise<{ secret: string; expiry: string }> {
  const { clock } = ctx
  const userId = ctx.actor.user.id
  return inContextTransaction(ctx, async ({ db: trx }) => {
    await lockUser(trx, userId)
    if (!(await hasAnsweredSecurityQuestions(trx, userId))) throw badRequest(SECURITY_QUESTIONS_REQUIRED)
    const secret = newTotpSecret()
    const expiry = addSeconds(formatTimestamp(clock.now()), TFA_SECRET_LIFETIME_SECONDS)
    await repo.setPendingSecret(trx, userId, box.seal('tfa-secret', secret, secretContext(userId)), expiry)
    return { secret, expiry }
  })
}

/**
 * POST /profile/tfa-enable-confirm: a current code of the pending secret turns two-factor on and
 * yields a one-use scratch code, stored only as a keyed digest. The row lock makes a code good for
 * one confirmation even when two requests race.
 */
export async function confirmTfa(
  ctx: RequestContext,
  box: SecretBox,
  code: string,
): Promise<{ scratch: string }> {
  const { clock, actor } = ctx
  const userId = actor.user.id
  return inContextTransaction(ctx, async ({ db: trx }) => {
    await lockUser(trx, userId)
    const now = clock.now()
    const tfa = await repo.findTfa(trx, userId)
    const pending =
      tfa?.pending_secret_sealed == null
        ? undefined
        : box.open('tfa-secret', tfa.pending_secret_sealed, secretContext(userId))
    if (tfa?.pending_secret_sealed == null || tfa.pending_expiry === null || pending === undefined) {
      throw badRequest(
        'No two factor secret is waiting for confirmation; request one with /profile/tfa-enable',
      )
    }
    if (tfa.pending_expiry <= formatTimestamp(now)) {
      throw badRequest('Your two factor secret has expired; request a new one with /profile/tfa-enable')
    }
    const timeStep = await matchTotp(pending, code, now, null)
    if (timeStep === undefined) throw badRequest('Invalid two factor code', 'tfa_code')
    const scratch = newScratchCode()
    await repo.confirmSecret(trx, userId, {
      secretSealed: tfa.pending_secret_sealed,
      timeStep,
      scratchDigest: box.digest('scratch-code', scratch),
    })
    await setTwoFactorFlag(trx, userId, true)
    await recordEvent(trx, profileEvent(actor, 'tfa_enabled', profileEntity(actor), formatTimestamp(now)))
    return { scratch }
  })
}

/** POST /profile/tfa-disable: logins from untrusted devices then need only a password. */
export async function disableTfa(ctx: RequestContext): Promise<void> {
  const { clock, actor } = ctx
  const userId = actor.user.id
  await inContextTransaction(ctx, async ({ db: trx }) => {
    await lockUser(trx, userId)
    const tfa = await repo.findTfa(trx, userId)
    await repo.deleteTfa(trx, userId)
    // As it is now, not as the request found it: disables sent together record one event.
    const wasOn = (await hasTwoFactorOn(trx, userId)) || (tfa?.secret_sealed ?? null) !== null
    if (!wasOn) return
    await setTwoFactorFlag(trx, userId, false)
    await recordEvent(
      trx,
      profileEvent(actor, 'tfa_disabled', profileEntity(actor), formatTimestamp(clock.now())),
    )
  })
}

/**
 * For the login service: checks a two-factor code (or the scratch code) of a user with two-factor
 * on. A TOTP code is good once (its step must be later than the last one accepted); the scratch
 * code is good once, then gone.
 */
export async function verifyTwoFactorCode(
  db: Db,
  box: SecretBox,
  clock: Clock,
  userId: number,
  code: string,
): Promise<boolean> {
  return inTransaction(db, async (trx) => {
    await lockUser(trx, userId)
    const tfa = await repo.findTfa(trx, userId)
    if (tfa?.secret_sealed == null) return false
    if (
      tfa.scratch_digest !== null &&
      box.matches('scratch-code', code.trim().toUpperCase(), tfa.scratch_digest)
    ) {
      await repo.clearScratchCode(trx, userId)
      return true
    }
    const secret = box.open('tfa-secret', tfa.secret_sealed, secretContext(userId))
    if (secret === undefined) return false
    const timeStep = await matchTotp(secret, code, clock.now(), tfa.last_time_step)
    if (timeStep === undefined) return false
    await repo.setLastTimeStep(trx, userId, timeStep)
    return true
  })
}
