import type { Db } from '../../../db/connect.ts'
import { forUpdate } from '../../../db/dialects/dialect.ts'
import type { InstanceRow } from './instances.table.ts'

/** An instance by id alone, locked (PostgreSQL): background work acts for no caller. */
export async function lockInstanceById(db: Db, id: number): Promise<InstanceRow | undefined> {
  return forUpdate(db, db.selectFrom('compute_instances').selectAll().where('id', '=', id)).executeTakeFirst()
}
