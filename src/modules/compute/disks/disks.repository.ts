import { filterFields } from '../../../common/filter-columns.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { type ListCriteria, listCriteria } from '../../../db/list-criteria.ts'
import { insertRow } from '../../../db/rows.ts'
import { allOfInstance, findOfInstance, pageOfInstance } from '../instance-children.repository.ts'
import type { DiskRow, NewDiskRow } from './disks.table.ts'

/** Filterable disk fields (docs/service-facts.md#filterable-fields). */
const DISK_FILTERS = filterFields({ string: ['label'], integer: ['size'] })

/**
 * The X-Filter and order of an instance's disk list. Services compile it before looking the
 * instance up, so a bad filter is reported first.
 */
export const diskListCriteria = (db: Db, filter: string | undefined): ListCriteria =>
  listCriteria({ filter, spec: DISK_FILTERS, dialect: dialectOf(db), order: { unique: 'id' } })

export const pageInstanceDisks = (db: Db, instanceId: number, page: PageRequest, criteria: ListCriteria) =>
  pageOfInstance(db, 'compute_disks', instanceId, page, criteria)

export const listInstanceDisks = (db: Db, instanceId: number): Promise<DiskRow[]> =>
  allOfInstance(db, 'compute_disks', instanceId)

export const findInstanceDisk = (db: Db, instanceId: number, id: number): Promise<DiskRow | undefined> =>
  findOfInstance(db, 'compute_disks', instanceId, id)

export const insertDisk = (db: Db, row: NewDiskRow) => insertRow(db, 'compute_disks', row)

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
