import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { trustDevice, useTrustedDevice } from '../profile/devices/devices.service.ts'
import { recordLogin } from '../profile/logins/logins.service.ts'
import type { SecretBox } from '../profile/secrets/secret-box.ts'
import { verifyTwoFactorCode } from '../profile/two-factor/two-factor.service.ts'
import type { UserRow } from '../users/users.table.ts'
import * as repo from './login.repository.ts'
import { attemptFailed, attemptSucceeded, beginAttempt } from './login-throttle.ts'
import { DUMMY_PASSWORD_HASH, verifyPassword } from './passwords.ts'

export interface LoginDeps {
  db: Db
  clock: Clock
  box: SecretBox
}

export interface Attempt {
  address: string
  userAgent: string
}

export type PasswordOutcome =
  | { kind: 'locked'; until: string }
  | { kind: 'refused' }
  | { kind: 'signed_in'; user: UserRow }
  | { kind: 'two_factor'; user: UserRow }

export type CodeOutcome =
  | { kind: 'locked'; until: string }
  | { kind: 'refused' }
  | { kind: 'signed_in'; deviceSecret: string | undefined }

/**
 * The password step. Unknown names and wrong passwords get the same answer after the same work
 * (a dummy hash is checked for unknown names); every attempt on a real user is a login record.
 * A user with two-factor on goes on to the code step unless this browser is a trusted device.
 */
export async function checkPassword(
  deps: LoginDeps,
  input: Attempt & { username: string; password: string; deviceSecret: string | undefined },
): Promise<PasswordOutcome> {
  const { db, clock } = deps
  const keys = { username: input.username, address: input.address }
  const user = await repo.findUserByUsername(db, input.username)
  const locked = await beginAttempt(db, keys, nowTimestamp(clock))
  if (locked !== undefined) {
    if (user !== undefined) await recordLogin(db, clock, { user, ip: input.address, status: 'failed' })
    return { kind: 'locked', until: locked }
  }
  const stored = user === undefined ? undefined : await repo.findPasswordHash(db, user.id)
  const matches = await verifyPassword(input.password, stored ?? DUMMY_PASSWORD_HASH)
  if (user === undefined || stored === undefined || !matches) {
    if (user !== undefined) await recordLogin(db, clock, { user, ip: input.address, status: 'failed' })
    const until = await attemptFailed(db, keys, nowTimestamp(clock))
    return until === undefined ? { kind: 'refused' } : { kind: 'locked', until }
  }
  const trusted =
    input.deviceSecret !== undefined &&
    (await useTrustedDevice(db, deps.box, clock, {
      userId: user.id,
      secret: input.deviceSecret,
      remoteAddr: input.address,
    }))
  const signedIn = !user.two_factor_auth || trusted
  await attemptSucceeded(db, keys, nowTimestamp(clock), signedIn)
  if (!signedIn) return { kind: 'two_factor', user }
  await recordLogin(db, clock, { user, ip: input.address, status: 'successful' })
  return { kind: 'signed_in', user }
}

/**
 * The two-factor step: a current TOTP code or the scratch code (each good once). Failures count
 * towards the same lockout as wrong passwords. "Trust this computer" makes a trusted device whose
 * secret goes into the browser's cookie.
 */
export async function checkTwoFactorCode(
  deps: LoginDeps,
  input: Attempt & { user: UserRow; code: string; trust: boolean },
): Promise<CodeOutcome> {
  const { db, clock, box } = deps
  const { user } = input
  const keys = { username: user.username, address: input.address }
  const locked = await beginAttempt(db, keys, nowTimestamp(clock))
  if (locked !== undefined) return { kind: 'locked', until: locked }
  if (!(await verifyTwoFactorCode(db, box, clock, user.id, input.code.trim()))) {
    await recordLogin(db, clock, { user, ip: input.address, status: 'failed' })
    const until = await attemptFailed(db, keys, nowTimestamp(clock))
    return until === undefined ? { kind: 'refused' } : { kind: 'locked', until }
  }
  await attemptSucceeded(db, keys, nowTimestamp(clock), true)
  await recordLogin(db, clock, { user, ip: input.address, status: 'successful' })
  if (!input.trust) return { kind: 'signed_in', deviceSecret: undefined }
  const { secret } = await trustDevice(db, box, clock, {
    userId: user.id,
    userAgent: input.userAgent.slice(0, 512),
    remoteAddr: input.address,
  })
  return { kind: 'signed_in', deviceSecret: secret }
}
