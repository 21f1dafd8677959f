import { addSeconds } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import * as repo from './login.repository.ts'
import type { LoginThrottleRow } from './login.tables.ts'

/**
 * Guessing limits: failed attempts are counted per username (whether or not it exists, so the
 * lockout reveals nothing) and per address, within a window; reaching the limit locks that name or
 * address out for a while, and the login page says until when.
 */
export const THROTTLE_WINDOW_SECONDS = 15 * 60
export const LOCKOUT_SECONDS = 15 * 60
export const USERNAME_FAILURE_LIMIT = 5
export const ADDRESS_FAILURE_LIMIT = 20

export interface ThrottleKeys {
  username: string
  address: string
}

const keysOf = (keys: ThrottleKeys) => [
  { key: `user:${keys.username.toLowerCase()}`, limit: USERNAME_FAILURE_LIMIT },
  { key: `addr:${keys.address}`, limit: ADDRESS_FAILURE_LIMIT },
]

/** The throttles of the name and the address, held until the transaction ends, by key. */
async function heldThrottles(db: Db, limits: ReturnType<typeof keysOf>, now: string) {
  const rows = await repo.lockThrottles(
    db,
    limits.map((k) => k.key),
    now,
  )
  return new Map(rows.map((row) => [row.key, row]))
}

/**
 * Counts an attempt before its password or code is checked, so that a burst of guesses sent at
 * once is held to the limit as guesses sent one by one are: past the limit in the window, the
 * attempt locks the name or address out and is not checked. Returns the end of the lockout in
 * force (nothing is counted then) or just started; undefined when the attempt may be checked.
 */
export async function beginAttempt(db: Db, keys: ThrottleKeys, now: string): Promise<string | undefined> {
  return inTransaction(db, async (trx) => {
    const limits = keysOf(keys)
    const rows = await heldThrottles(trx, limits, now)
    const inForce = [...rows.values()]
      .map((r) => r.locked_until)
      .filter((t): t is string => t !== null && t > now)
      .sort()
      .at(-1)
    if (inForce !== undefined) return inForce
    let locked: string | undefined
    for (const { key, limit } of limits) {
      const row = rows.get(key) as LoginThrottleRow
      const fresh = addSeconds(row.window_start, THROTTLE_WINDOW_SECONDS) <= now
      const attempts = fresh ? 1 : row.failures + 1
      const over = attempts > limit
      if (over) locked = addSeconds(now, LOCKOUT_SECONDS)
      await repo.saveThrottle(trx, {
        key,
        failures: over ? 0 : attempts,
        window_start: fresh || over ? now : row.window_start,
        locked_until: over ? (locked as string) : null,
      })
    }
    return locked
  })
}

/**
 * A counted attempt failed: reaching the limit locks the name or address out. Returns the end of
 * the lockout in force, which this failure or another attempt of the same burst started.
 */
export async function attemptFailed(db: Db, keys: ThrottleKeys, now: string): Promise<string | undefined> {
  return inTransaction(db, async (trx) => {
    const limits = keysOf(keys)
    const rows = await heldThrottles(trx, limits, now)
    let locked: string | undefined
    for (const { key, limit } of limits) {
      const row = rows.get(key) as LoginThrottleRow
      if (row.locked_until !== null && row.locked_until > now) {
        locked = [locked ?? '', row.locked_until].sort().at(-1)
      } else if (row.failures >= limit) {
        locked = addSeconds(now, LOCKOUT_SECONDS)
        await repo.saveThrottle(trx, { key, failures: 0, window_start: now, locked_until: locked })
      }
    }
    return locked
  })
}

/**
 * A counted attempt succeeded: it is given back (only failures count). Once the user is signed in
 * (`signedIn`), the name's failures are forgotten too; a right password that leads to the
 * two-factor step forgets nothing, or entering it again would reset the count of wrong codes.
 */
export async function attemptSucceeded(
  db: Db,
  keys: ThrottleKeys,
  now: string,
  signedIn: boolean,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const user = `user:${keys.username.toLowerCase()}`
    for (const row of (await heldThrottles(trx, keysOf(keys), now)).values()) {
      if (row.key === user && signedIn) await repo.clearThrottle(trx, user)
      else if (row.failures > 0) await repo.saveThrottle(trx, { ...row, failures: row.failures - 1 })
    }
  })
}
