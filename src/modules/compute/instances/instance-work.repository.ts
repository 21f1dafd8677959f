import type { Db } from '../../../db/connect.ts'
import { findRow } from '../../../db/rows.ts'

/** An instance by id alone, locked (PostgreSQL): background work acts for no caller. */
export const lockInstanceById = (db: Db, id: number) =>
  findRow(db, 'compute_instances', { id }, { lock: true })
