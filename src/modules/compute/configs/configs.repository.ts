import { sameNameColumns } from '../../../common/filter-columns.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { type ListCriteria, listCriteria } from '../../../db/list-criteria.ts'
import { allOfInstance, findOfInstance, pageOfInstance } from '../instance-children.repository.ts'
import type { ConfigRow, ConfigRowUpdate, NewConfigRow } from './configs.table.ts'

/** Config profiles can be filtered by label. */
const CONFIG_FILTERS: FilterSpec = sameNameColumns({ label: 'string' })

/**
 * The X-Filter and order of an instance's profile list. Services compile it before looking the
 * instance up, so a bad filter is reported first.
 */
export const configListCriteria = (db: Db, filter: string | undefined): ListCriteria =>
  listCriteria({ filter, spec: CONFIG_FILTERS, dialect: dialectOf(db), order: { unique: 'id' } })

export const pageInstanceConfigs = (db: Db, instanceId: number, page: PageRequest, criteria: ListCriteria) =>
  pageOfInstance(db, 'compute_configs', instanceId, page, criteria)

export const listInstanceConfigs = (db: Db, instanceId: number): Promise<ConfigRow[]> =>
  allOfInstance(db, 'compute_configs', instanceId)

export const findInstanceConfig = (db: Db, instanceId: number, id: number): Promise<ConfigRow | undefined> =>
  findOfInstance(db, 'compute_configs', instanceId, id)

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
