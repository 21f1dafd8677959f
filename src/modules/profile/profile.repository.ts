import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'

/**
 * Serializes one user's profile writes that read before they write (two-factor, phone codes,
 * security answers): a row lock on PostgreSQL; SQLite's write transactions are already exclusive.
 */
export async function lockUser(db: Db, userId: number): Promise<void> {
  await forUpdate(db, db.selectFrom('users').select('id').where('id', '=', userId)).execute()
}
