import type { Selectable } from 'kysely'
import type { PageRequest } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import type { Database } from '../../db/database.ts'
import { type ListCriteria, pageByCriteria } from '../../db/list-criteria.ts'

/** The tables whose rows belong to one instance (by `instance_id`) and have their own `id`. */
type InstanceChildTable = 'compute_configs' | 'compute_disks'
type ChildRow<T extends InstanceChildTable> = Selectable<Database[T]>

/*
 * Kysely cannot resolve column names over a generic table, so the queries are typed on one
 * member of the union; both share `id` and `instance_id`, and the rows are returned as T's.
 */
const ofInstance = <T extends InstanceChildTable>(db: Db, table: T, instanceId: number) =>
  db
    .selectFrom(table as 'compute_disks')
    .selectAll()
    .where('instance_id', '=', instanceId)

/** A page of an instance's rows of `table`, narrowed by the list's criteria. */
export async function pageOfInstance<T extends InstanceChildTable>(
  db: Db,
  table: T,
  instanceId: number,
  page: PageRequest,
  criteria: ListCriteria,
): Promise<PageResult<ChildRow<T>>> {
  const rows = await pageByCriteria(db, ofInstance(db, table, instanceId), criteria, page)
  return rows as unknown as PageResult<ChildRow<T>>
}

/** Every row of `table` that belongs to the instance, in id order. */
export async function allOfInstance<T extends InstanceChildTable>(
  db: Db,
  table: T,
  instanceId: number,
): Promise<ChildRow<T>[]> {
  return (await ofInstance(db, table, instanceId).orderBy('id').execute()) as ChildRow<T>[]
}

/** One row of `table`, if it belongs to the instance. */
export async function findOfInstance<T extends InstanceChildTable>(
  db: Db,
  table: T,
  instanceId: number,
  id: number,
): Promise<ChildRow<T> | undefined> {
  return (await ofInstance(db, table, instanceId).where('id', '=', id).executeTakeFirst()) as
    | ChildRow<T>
    | undefined
}
