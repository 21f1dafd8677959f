import { sql } from 'kysely'
import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { forUpdate } from '../../../db/dialects/dialect.ts'
import type { GrantedListScope } from '../../grants/authorize.ts'
import { grantRestriction } from '../../grants/grant-filter.ts'
import type { InstanceRow, InstanceRowUpdate, NewInstanceRow } from './instances.table.ts'

/** The account's instance; `lock` holds its row until the transaction ends (PostgreSQL), for a change. */
export async function findAccountInstance(
  db: Db,
  accountId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<InstanceRow | undefined> {
  const query = db
    .selectFrom('compute_instances')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
  return (options.lock ? forUpdate(db, query) : query).executeTakeFirst()
}

export async function findInstanceByLabel(
  db: Db,
  accountId: number,
  label: string,
): Promise<InstanceRow | undefined> {
  return db
    .selectFrom('compute_instances')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('label', '=', label)
    .executeTakeFirst()
}

/** Filterable instance fields. */
const INSTANCE_FILTERS: FilterSpec = {
  id: { column: 'id', type: 'integer' },
  label: { column: 'label', type: 'string' },
  group: { column: 'display_group', type: 'string' },
  region: { column: 'region', type: 'string' },
  type: { column: 'type', type: 'string' },
  image: { column: 'image', type: 'string', nullable: true },
}

/** The account's instances, or a restricted user's granted ones. */
export function listAccountInstances(
  db: Db,
  scope: GrantedListScope,
  list: ListQuery,
): Promise<PageResult<InstanceRow>> {
  const query = db.selectFrom('compute_instances').selectAll().where('account_id', '=', scope.accountId)
  const restriction = grantRestriction('compute', 'id', scope.restrictedUserId)
  return pageOfFilteredList(db, query, { spec: INSTANCE_FILTERS, unique: 'id', restriction }, list)
}

export async function insertInstance(db: Db, row: NewInstanceRow): Promise<InstanceRow> {
  return db.insertInto('compute_instances').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateInstance(db: Db, id: number, values: InstanceRowUpdate): Promise<InstanceRow> {
  return db
    .updateTable('compute_instances')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Deletes the instance; its disks, configs and interfaces go with it (foreign-key cascade). */
export async function deleteInstance(db: Db, id: number): Promise<void> {
  await db.deleteFrom('compute_instances').where('id', '=', id).execute()
}

/** Marks the interfaces of the booted profile active and every other one of the instance inactive. */
export async function setActiveConfig(db: Db, instanceId: number, configId: number | null): Promise<void> {
  if (configId === null) {
    await db
      .updateTable('compute_interfaces')
      .set({ active: false })
      .where('instance_id', '=', instanceId)
      .where('active', '=', true)
      .execute()
    return
  }
  await db
    .updateTable('compute_interfaces')
    .set({ active: sql<boolean>`(config_id = ${configId})` })
    .where('instance_id', '=', instanceId)
    .execute()
}

/** The account's instances' monthly transfer (their types' `transfer`, GB) summed by region. */
export async function sumTransferByRegion(
  db: Db,
  accountId: number,
): Promise<Array<{ region: string; quota: number }>> {
  const rows = await db
    .selectFrom('compute_instances as i')
    .innerJoin('compute_types as t', 't.id', 'i.type')
    .select(['i.region as region', sql<number>`sum(t.transfer)`.as('quota')])
    .where('i.account_id', '=', accountId)
    .groupBy('i.region')
    .orderBy('i.region')
    .execute()
  return rows.map((r) => ({ region: r.region, quota: Number(r.quota) }))
}
