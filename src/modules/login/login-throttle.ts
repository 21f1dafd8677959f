import { addSeconds } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import * as repo from './login.repository.ts'

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

/** When the name or address is locked out, the time the lockout ends; else undefined. */
export async function lockedUntil(db: Db, keys: ThrottleKeys, now: string): Promise<string | undefined> {
  const rows = await repo.findThrottles(
    db,
    keysOf(keys).map((k) => k.key),
  )
  const until = rows.map((r) => r.locked_until).filter((t): t is string => t !== null && t > now)
  return until.sort().at(-1)
}

/** Counts a failure; returns the end of the lockout it started, if it started one. */
export async function recordFailure(db: Db, keys: ThrottleKeys, now: string): Promise<string | undefined> {
  return inTransaction(db, async (trx) => {
    const existing = new Map(
      (
        await repo.findThrottles(
          trx,
          keysOf(keys).map((k) => k.key),
        )
      ).map((r) => [r.key, r]),
    )
    let locked: string | undefined
    for (const { key, limit } of keysOf(keys)) {
      const row = existing.get(key)
      const fresh = row === undefined || addSeconds(row.window_start, THROTTLE_WINDOW_SECONDS) <= now
      const failures = fresh ? 1 : row.failures + 1
      const lockedUntil = failures >= limit ? addSeconds(now, LOCKOUT_SECONDS) : null
      if (lockedUntil !== null) locked = lockedUntil
      await repo.saveThrottle(trx, {
        key,
        failures: lockedUntil === null ? failures : 0,
        window_start: fresh || lockedUntil !== null ? now : row.window_start,
        locked_until: lockedUntil ?? (fresh ? null : row.locked_until),
      })
    }
    return locked
  })
}

/** A successful login forgets the name's failures (the address keeps its count). */
export async function recordSuccess(db: Db, keys: ThrottleKeys): Promise<void> {
  await repo.clearThrottle(db, `user:${keys.username.toLowerCase()}`)
}
