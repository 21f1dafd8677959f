import { filterFields } from '../../common/filter-columns.ts'
import { pageOfFilteredList } from '../../common/filtered-list.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import { deleteRows, findRow, insertRow, type RowLock, updateRow } from '../../db/rows.ts'
import type { GrantedListScope } from '../grants/authorize.ts'
import { grantRestriction } from '../grants/grant-filter.ts'
import type { NewVolumeRow, VolumeRowUpdate, VolumeView } from './volumes.table.ts'

/** Filterable volume fields. */
const VOLUME_FILTERS = filterFields(
  {
    integer: ['id', 'size', 'linode_id'],
    string: ['label', 'region', 'status', 'hardware_type'],
    timestamp: ['created', 'updated'],
  },
  { column: (field) => `volumes.${field}`, nullable: ['linode_id'] },
)

/**
 * Volumes with the label of the instance each is attached to: the one read of the instances
 * table outside compute, for that label alone.
 */
const volumeViews = (db: Db) =>
  db
    .selectFrom('volumes')
    .leftJoin('compute_instances', 'compute_instances.id', 'volumes.linode_id')
    .selectAll('volumes')
    .select('compute_instances.label as linode_label')

/** The account's volume; `lock` holds its row until the transaction ends (PostgreSQL). */
export const findAccountVolume = (db: Db, accountId: number, id: number, options?: RowLock) =>
  findRow(db, 'volumes', { id, account_id: accountId }, options)

export async function findVolumeView(db: Db, id: number): Promise<VolumeView | undefined> {
  return volumeViews(db).where('volumes.id', '=', id).executeTakeFirst()
}

export const findVolumeByLabel = (db: Db, accountId: number, label: string) =>
  findRow(db, 'volumes', { account_id: accountId, label })

/** The volume, locked, whatever its account (for jobs). */
export const lockVolume = (db: Db, id: number) => findRow(db, 'volumes', { id }, { lock: true })

export async function listVolumes(
  db: Db,
  scope: GrantedListScope,
  list: ListQuery,
): Promise<PageResult<VolumeView>> {
  const query = volumeViews(db).where('volumes.account_id', '=', scope.accountId)
  const restriction = grantRestriction('volume', 'volumes.id', scope.restrictedUserId)
  return pageOfFilteredList(db, query, { spec: VOLUME_FILTERS, unique: 'volumes.id', restriction }, list)
}

export const insertVolume = (db: Db, row: NewVolumeRow) => insertRow(db, 'volumes', row)

export const updateVolume = (db: Db, id: number, values: VolumeRowUpdate) =>
  updateRow(db, 'volumes', { id }, values)

export const deleteVolume = (db: Db, id: number) => deleteRows(db, 'volumes', { id })
