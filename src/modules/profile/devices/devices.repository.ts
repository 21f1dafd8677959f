import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { insertRow, rowsOf, takeRow, updateRows } from '../../../db/rows.ts'
import type { TrustedDeviceRow } from './devices.table.ts'

/**
 * No device field is filterable (docs/service-facts.md#filterable-fields); the header is still
 * checked, so a filter on anything is refused.
 */
export const DEVICE_FILTERS: FilterSpec = {}

/** Only sessions that have not expired are devices at all (rule 7). */
const activeDevices = (db: Db, userId: number, now: string) =>
  rowsOf(db, 'trusted_devices', { user_id: userId }).where('expiry', '>', now)

export const listDevices = (db: Db, userId: number, now: string, list: ListQuery) =>
  pageOfFilteredList(db, activeDevices(db, userId, now), { spec: DEVICE_FILTERS, unique: 'id' }, list)

export const findDevice = (db: Db, userId: number, id: number, now: string) =>
  activeDevices(db, userId, now).where('id', '=', id).executeTakeFirst()

export const findDeviceByDigest = (db: Db, userId: number, digest: string, now: string) =>
  activeDevices(db, userId, now).where('secret_digest', '=', digest).executeTakeFirst()

export const insertDevice = (db: Db, device: Omit<TrustedDeviceRow, 'id'>) =>
  insertRow(db, 'trusted_devices', device)

export const touchDevice = (db: Db, id: number, at: string, remoteAddr: string) =>
  updateRows(db, 'trusted_devices', { id }, { last_authenticated: at, last_remote_addr: remoteAddr })

/** True when this call removed it (a concurrent revoke may have first). */
export const deleteDevice = (db: Db, id: number) => takeRow(db, 'trusted_devices', { id })
