import { filterFields } from '../../../common/filter-columns.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { listCriteria, pageByCriteria } from '../../../db/list-criteria.ts'
import { findRow, rowsIn } from '../../../db/rows.ts'

/** The filterable fields of the type list. */
const TYPE_FILTERS = filterFields({
  string: ['class', 'label'],
  integer: ['disk', 'gpus', 'memory', 'network_out', 'transfer', 'vcpus'],
})

/** The catalogue in its own order after the filter's. */
export function listTypes(db: Db, page: PageRequest, filter: string | undefined) {
  const order = { unique: 'position', uniqueFollowsFilter: false }
  const criteria = listCriteria({ filter, spec: TYPE_FILTERS, dialect: dialectOf(db), order })
  return pageByCriteria(db, db.selectFrom('compute_types').selectAll(), criteria, page)
}

export const findType = (db: Db, id: string) => findRow(db, 'compute_types', { id })

/** The types of a page of instances, in one query. */
export const findTypes = (db: Db, ids: readonly string[]) =>
  rowsIn(db, 'compute_types', 'id', [...new Set(ids)])
