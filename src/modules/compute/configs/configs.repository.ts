import type { RawBuilder, SqlBool } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import type { ConfigRow, ConfigRowUpdate, NewConfigRow } from './configs.table.ts'

export async function pageInstanceConfigs(
  db: Db,
  instanceId: number,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<ConfigRow>> {
  let query = db.selectFrom('compute_configs').selectAll().where('instance_id', '=', instanceId)
  if (where) query = query.where(where)
  return paginate(query, page, order)
}

export async function listInstanceConfigs(db: Db, instanceId: number): Promise<ConfigRow[]> {
  return db
    .selectFrom('compute_configs')
    .selectAll()
    .where('instance_id', '=', instanceId)
    .orderBy('id')
    .execute()
}

export async function findInstanceConfig(
  db: Db,
  instanceId: number,
  id: number,
): Promise<ConfigRow | undefined> {
  return db
    .selectFrom('compute_configs')
    .selectAll()
    .where('id', '=', id)
    .where('instance_id', '=', instanceId)
    .executeTakeFirst()
}

export async function insertConfig(db: Db, row: NewConfigRow): Promise<ConfigRow> {
  return db.insertInto('compute_configs').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateConfig(db: Db, id: number, values: ConfigRowUpdate): Promise<ConfigRow> {
  return db
    .updateTable('compute_configs')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteConfig(db: Db, id: number): Promise<void> {
  await db.deleteFrom('compute_configs').where('id', '=', id).execute()
}
