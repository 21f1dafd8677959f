import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import { findRow, insertRow, updateRow } from '../../db/rows.ts'
import type { AccountRowUpdate } from './accounts.table.ts'

export const insertAccount = (db: Db, account: { uuid: string; created: string }) =>
  insertRow(db, 'accounts', account)

export const findAccount = (db: Db, id: number) => findRow(db, 'accounts', { id })

/**
 * Serializes writes that check an account-wide invariant (quotas, "keep one unrestricted user"):
 * a row lock on PostgreSQL; SQLite's write transactions are already exclusive.
 */
export async function lockAccount(db: Db, accountId: number): Promise<void> {
  await forUpdate(db, db.selectFrom('accounts').select('id').where('id', '=', accountId)).execute()
}

/** Changes the account's contact fields. */
export const updateAccount = (db: Db, id: number, values: AccountRowUpdate) =>
  updateRow(db, 'accounts', { id }, values)
