import type { RawBuilder, SqlBool } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { DiskRow, NewDiskRow } from './disks.table.ts'

export async function pageInstanceDisks(
  db: Db,
  instanceId: number,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<DiskRow>> {
  let query = db.selectFrom('compute_disks').selectAll().where('instance_id', '=', instanceId)
  if (where) query = query.where(where)
  return paginate(query, page, order)
}

export async function listInstanceDisks(db: Db, instanceId: number): Promise<DiskRow[]> {
  return db
    .selectFrom('compute_disks')
    .selectAll()
    .where('instance_id', '=', instanceId)
    .orderBy('id')
    .execute()
}

export async function findInstanceDisk(db: Db, instanceId: number, id: number): Promise<DiskRow | undefined> {
  return db
    .selectFrom('compute_disks')
    .selectAll()
    .where('id', '=', id)
    .where('instance_id', '=', instanceId)
    .executeTakeFirst()
}

export async function insertDisk(db: Db, row: NewDiskRow): Promise<DiskRow> {
  return db.insertInto('compute_disks').values(row).returningAll().executeTakeFirstOrThrow()
}

/** A disk with the instance it belongs to: what image capture needs to check and label an image. */
export interface AccountDisk extends DiskRow {
  instance_label: string
  account_id: number
}

/**
 * A disk of the account by id alone (image capture names only `disk_id`); another account's disk
 * is not found. Grants on the instance are the caller's to check (`compute`, instance_id).
 */
export async function findAccountDisk(
  db: Db,
  accountId: number,
  diskId: number,
): Promise<AccountDisk | undefined> {
  return db
    .selectFrom('compute_disks as d')
    .innerJoin('compute_instances as i', 'i.id', 'd.instance_id')
    .selectAll('d')
    .select(['i.label as instance_label', 'i.account_id as account_id'])
    .where('d.id', '=', diskId)
    .where('i.account_id', '=', accountId)
    .executeTakeFirst()
}
