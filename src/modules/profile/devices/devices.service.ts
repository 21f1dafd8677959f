import { randomBytes } from 'node:crypto'
import { notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../../common/time.ts'
import { compileFilter } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import type { SecretBox } from '../secrets/secret-box.ts'
import * as repo from './devices.repository.ts'
import type { TrustedDevice } from './devices.schemas.ts'
import type { TrustedDeviceRow } from './devices.table.ts'

/** Remember-me sessions last 30 days (API document, Limits). */
export const TRUSTED_DEVICE_LIFETIME_SECONDS = 30 * 24 * 3600

export function toTrustedDevice(row: TrustedDeviceRow): TrustedDevice {
  return {
    id: row.id,
    created: row.created,
    expiry: row.expiry,
    user_agent: row.user_agent,
    last_authenticated: row.last_authenticated,
    last_remote_addr: row.last_remote_addr,
  }
}

async function getRow(db: Db, clock: Clock, actor: Actor, id: number): Promise<TrustedDeviceRow> {
  const row = await repo.findDevice(db, actor.user.id, id, nowTimestamp(clock))
  if (row === undefined) throw notFound()
  return row
}

/** No device field is filterable (api-facts 2.2); the header is still checked. */
export async function listDevices(
  db: Db,
  clock: Clock,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<TrustedDevice>> {
  compileFilter(filter, {}, dialectOf(db))
  return mapPage(await repo.listDevices(db, actor.user.id, nowTimestamp(clock), page), toTrustedDevice)
}

export async function getDevice(db: Db, clock: Clock, actor: Actor, id: number): Promise<TrustedDevice> {
  return toTrustedDevice(await getRow(db, clock, actor, id))
}

/** Ends the remember-me session: the device's secret no longer skips the two-factor step. */
export async function revokeDevice(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await getRow(trx, clock, actor, id)
    await repo.deleteDevice(trx, row.id)
  })
}

/**
 * For the login service: remembers a browser after a successful login. The secret (for the
 * browser's cookie) is returned once and stored only as a keyed digest.
 */
export async function trustDevice(
  db: Db,
  box: SecretBox,
  clock: Clock,
  input: { userId: number; userAgent: string; remoteAddr: string },
): Promise<{ device: TrustedDeviceRow; secret: string }> {
  const secret = randomBytes(32).toString('base64url')
  const now = nowTimestamp(clock)
  const device = await inTransaction(db, (trx) =>
    repo.insertDevice(trx, {
      user_id: input.userId,
      secret_digest: box.digest('device-secret', secret),
      created: now,
      expiry: addSeconds(now, TRUSTED_DEVICE_LIFETIME_SECONDS),
      last_authenticated: now,
      last_remote_addr: input.remoteAddr,
      user_agent: input.userAgent,
    }),
  )
  return { device, secret }
}

/**
 * For the login service: whether a remember-me secret still names an active device of the user;
 * if so, records this use. A revoked or expired device is refused.
 */
export async function useTrustedDevice(
  db: Db,
  box: SecretBox,
  clock: Clock,
  input: { userId: number; secret: string; remoteAddr: string },
): Promise<boolean> {
  const now = nowTimestamp(clock)
  return inTransaction(db, async (trx) => {
    const row = await repo.findDeviceByDigest(
      trx,
      input.userId,
      box.digest('device-secret', input.secret),
      now,
    )
    if (row === undefined) return false
    await repo.touchDevice(trx, row.id, now, input.remoteAddr)
    return true
  })
}
