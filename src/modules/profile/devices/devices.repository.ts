import { sql } from 'kysely'
import { type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { TrustedDeviceRow } from './devices.table.ts'

/** Only sessions that have not expired are devices at all (rule 7). */
function activeDevices(db: Db, userId: number, now: string) {
  return db.selectFrom('trusted_devices').selectAll().where('user_id', '=', userId).where('expiry', '>', now)
}

export async function listDevices(
  db: Db,
  userId: number,
  now: string,
  page: PageRequest,
): Promise<PageResult<TrustedDeviceRow>> {
  return paginate(activeDevices(db, userId, now), page, [{ expression: sql.ref('id'), direction: 'asc' }])
}

export async function findDevice(
  db: Db,
  userId: number,
  id: number,
  now: string,
): Promise<TrustedDeviceRow | undefined> {
  return activeDevices(db, userId, now).where('id', '=', id).executeTakeFirst()
}

export async function findDeviceByDigest(
  db: Db,
  userId: number,
  digest: string,
  now: string,
): Promise<TrustedDeviceRow | undefined> {
  return activeDevices(db, userId, now).where('secret_digest', '=', digest).executeTakeFirst()
}

export async function insertDevice(db: Db, device: Omit<TrustedDeviceRow, 'id'>): Promise<TrustedDeviceRow> {
  return db.insertInto('trusted_devices').values(device).returningAll().executeTakeFirstOrThrow()
}

export async function touchDevice(db: Db, id: number, at: string, remoteAddr: string): Promise<void> {
  await db
    .updateTable('trusted_devices')
    .set({ last_authenticated: at, last_remote_addr: remoteAddr })
    .where('id', '=', id)
    .execute()
}

export async function deleteDevice(db: Db, id: number): Promise<void> {
  await db.deleteFrom('trusted_devices').where('id', '=', id).execute()
}
