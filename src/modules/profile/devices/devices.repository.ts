import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { TrustedDeviceRow } from './devices.table.ts'

/**
 * No device field is filterable (docs/service-facts.md#filterable-fields); the header is still
 * checked, so a filter on anything is refused.
 */
export const DEVICE_FILTERS: FilterSpec = {}

/** Only sessions that have not expired are devices at all (rule 7). */
function activeDevices(db: Db, userId: number, now: string) {
  return db.selectFrom('trusted_devices').selectAll().where('user_id', '=', userId).where('expiry', '>', now)
}

export async function listDevices(
  db: Db,
  userId: number,
  now: string,
  list: ListQuery,
): Promise<PageResult<TrustedDeviceRow>> {
  return pageOfFilteredList(db, activeDevices(db, userId, now), { spec: DEVICE_FILTERS, unique: 'id' }, list)
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
