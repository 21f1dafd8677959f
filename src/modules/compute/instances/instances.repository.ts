import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { forUpdate } from '../../../db/dialects/dialect.ts'
import type { InstanceRow, InstanceRowUpdate, NewInstanceRow } from './instances.table.ts'

export async function findAccountInstance(
  db: Db,
  accountId: number,
  id: number,
): Promise<InstanceRow | undefined> {
  return db
    .selectFrom('compute_instances')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
}

/** The instance, locked until the transaction ends (PostgreSQL): its changes are serialized. */
export async function lockAccountInstance(
  db: Db,
  accountId: number,
  id: number,
): Promise<InstanceRow | undefined> {
  return forUpdate(
    db,
    db.selectFrom('compute_instances').selectAll().where('id', '=', id).where('account_id', '=', accountId),
  ).executeTakeFirst()
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

export async function listAccountInstances(
  db: Db,
  accountId: number,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<InstanceRow>> {
  let query = db.selectFrom('compute_instances').selectAll().where('account_id', '=', accountId)
  if (where) query = query.where(where)
  return paginate(query, page, order)
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
