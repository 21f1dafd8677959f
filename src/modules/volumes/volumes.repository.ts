import { pageOfFilteredList } from '../../common/filtered-list.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import type { GrantedListScope } from '../grants/authorize.ts'
import { grantRestriction } from '../grants/grant-filter.ts'
import type { NewVolumeRow, VolumeRow, VolumeRowUpdate, VolumeView } from './volumes.table.ts'

/** Filterable volume fields. */
const VOLUME_FILTERS: FilterSpec = {
  id: { column: 'volumes.id', type: 'integer' },
  label: { column: 'volumes.label', type: 'string' },
  region: { column: 'volumes.region', type: 'string' },
  size: { column: 'volumes.size', type: 'integer' },
  status: { column: 'volumes.status', type: 'string' },
  linode_id: { column: 'volumes.linode_id', type: 'integer', nullable: true },
  hardware_type: { column: 'volumes.hardware_type', type: 'string' },
  created: { column: 'volumes.created', type: 'timestamp' },
  updated: { column: 'volumes.updated', type: 'timestamp' },
}

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
export async function findAccountVolume(
  db: Db,
  accountId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<VolumeRow | undefined> {
  const query = db.selectFrom('volumes').selectAll().where('id', '=', id).where('account_id', '=', accountId)
  return (options.lock ? forUpdate(db, query) : query).executeTakeFirst()
}

export async function findVolumeView(db: Db, id: number): Promise<VolumeView | undefined> {
  return volumeViews(db).where('volumes.id', '=', id).executeTakeFirst()
}

export async function findVolumeByLabel(
  db: Db,
  accountId: number,
  label: string,
): Promise<VolumeRow | undefined> {
  return db
    .selectFrom('volumes')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('label', '=', label)
    .executeTakeFirst()
}

/** The volume, locked, whatever its account (for jobs). */
export async function lockVolume(db: Db, id: number): Promise<VolumeRow | undefined> {
  return forUpdate(db, db.selectFrom('volumes').selectAll().where('id', '=', id)).executeTakeFirst()
}

export async function listVolumes(
  db: Db,
  scope: GrantedListScope,
  list: ListQuery,
): Promise<PageResult<VolumeView>> {
  const query = volumeViews(db).where('volumes.account_id', '=', scope.accountId)
  const restriction = grantRestriction('volume', 'volumes.id', scope.restrictedUserId)
  return pageOfFilteredList(db, query, { spec: VOLUME_FILTERS, unique: 'volumes.id', restriction }, list)
}

export async function insertVolume(db: Db, row: NewVolumeRow): Promise<VolumeRow> {
  return db.insertInto('volumes').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateVolume(db: Db, id: number, values: VolumeRowUpdate): Promise<VolumeRow> {
  return db.updateTable('volumes').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteVolume(db: Db, id: number): Promise<void> {
  await db.deleteFrom('volumes').where('id', '=', id).execute()
}
