import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { foundOrNotFound, notFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import { randomBytes } from '../../../common/random.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
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

/** An active trusted device of the caller; anyone else's, or an expired one, is not found. */
async function accessDevice(
  ctx: RequestContext,
  { deviceId }: { deviceId: number },
): Promise<TrustedDeviceRow> {
  return foundOrNotFound(await repo.findDevice(ctx.db, ctx.actor.user.id, deviceId, nowTimestamp(ctx.clock)))
}

export async function listDevices(ctx: RequestContext, query: ListQuery): Promise<PageResult<TrustedDevice>> {
  const { db, clock, actor } = ctx
  const rows = await repo.listDevices(db, actor.user.id, nowTimestamp(clock), query)
  return mapPage(rows, toTrustedDevice)
}

export async function getDevice(ctx: RequestContext, ids: { deviceId: number }): Promise<TrustedDevice> {
  return toTrustedDevice(await accessDevice(ctx, ids))
}

/** Ends the remember-me session: the device's secret no longer skips the two-factor step. */
export async function revokeDevice(ctx: RequestContext, ids: { deviceId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessDevice(tx, ids)
    if (!(await repo.deleteDevice(tx.db, row.id))) throw notFound()
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
