import { sql } from 'kysely'
import { filterFields } from '../../../common/filter-columns.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import {
  deleteRows,
  findRow,
  insertRow,
  pageOfRows,
  type RowLock,
  updateRow,
  updateRows,
} from '../../../db/rows.ts'
import type { GrantedListScope } from '../../grants/authorize.ts'
import { grantRestriction } from '../../grants/grant-filter.ts'
import type { InstanceRowUpdate, NewInstanceRow } from './instances.table.ts'

/** The account's instance; `lock` holds its row until the transaction ends (PostgreSQL), for a change. */
export const findAccountInstance = (db: Db, accountId: number, id: number, options?: RowLock) =>
  findRow(db, 'compute_instances', { id, account_id: accountId }, options)

export const findInstanceByLabel = (db: Db, accountId: number, label: string) =>
  findRow(db, 'compute_instances', { account_id: accountId, label })

/** Filterable instance fields. */
const INSTANCE_FILTERS = filterFields(
  { integer: ['id'], string: ['label', 'group', 'region', 'type', 'image'] },
  { column: (field) => (field === 'group' ? 'display_group' : field), nullable: ['image'] },
)

/** The account's instances, or a restricted user's granted ones. */
export function listAccountInstances(db: Db, scope: GrantedListScope, list: ListQuery) {
  const restriction = grantRestriction('compute', 'id', scope.restrictedUserId)
  const fields = { spec: INSTANCE_FILTERS, unique: 'id', restriction }
  return pageOfRows(db, 'compute_instances', { account_id: scope.accountId }, fields, list)
}

export const insertInstance = (db: Db, row: NewInstanceRow) => insertRow(db, 'compute_instances', row)

export const updateInstance = (db: Db, id: number, values: InstanceRowUpdate) =>
  updateRow(db, 'compute_instances', { id }, values)

/** Deletes the instance; its disks, configs and interfaces go with it (foreign-key cascade). */
export const deleteInstance = (db: Db, id: number) => deleteRows(db, 'compute_instances', { id })

/** Marks the interfaces of the booted profile active and every other one of the instance inactive. */
export async function setActiveConfig(db: Db, instanceId: number, configId: number | null): Promise<void> {
  if (configId === null) {
    await updateRows(db, 'compute_interfaces', { instance_id: instanceId, active: true }, { active: false })
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
