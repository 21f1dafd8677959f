import type { Clock } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import type { SecretBox } from '../profile/secrets/secret-box.ts'
import { findTfaRow } from './control.repository.ts'

/**
 * The codes an authenticator app would show now (by the virtual clock) for a user's pending and
 * enabled two-factor secrets, so a test can finish the flow without a TOTP library. A code is
 * good once per 30-second step: a test that needs a second one advances the clock 30 s.
 */
export async function currentTfaCodes(db: Db, box: SecretBox, clock: Clock, userId: number) {
  const { generate } = await import('otplib')
  const row = await findTfaRow(db, userId)
  const context = `tfa:${userId}`
  const epoch = Math.floor(clock.now().getTime() / 1000)
  const codeOf = async (sealed: string | null | undefined) => {
    const secret = sealed == null ? undefined : box.open('tfa-secret', sealed, context)
    return secret === undefined ? null : generate({ secret, epoch })
  }
  return { pending: await codeOf(row?.pending_secret_sealed), enabled: await codeOf(row?.secret_sealed) }
}
