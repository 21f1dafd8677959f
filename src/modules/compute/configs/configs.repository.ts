import { filterFields } from '../../../common/filter-columns.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { type ListCriteria, listCriteria } from '../../../db/list-criteria.ts'
import { deleteRows, insertRow, updateRow } from '../../../db/rows.ts'
import { allOfInstance, findOfInstance, pageOfInstance } from '../instance-children.repository.ts'
import type { ConfigRow, ConfigRowUpdate, NewConfigRow } from './configs.table.ts'

/** Config profiles can be filtered by label. */
const CONFIG_FILTERS = filterFields({ string: ['label'] })

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

export const insertConfig = (db: Db, row: NewConfigRow) => insertRow(db, 'compute_configs', row)

export const updateConfig = (db: Db, id: number, values: ConfigRowUpdate) =>
  updateRow(db, 'compute_configs', { id }, values)

export const deleteConfig = (db: Db, id: number) => deleteRows(db, 'compute_configs', { id })
