import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import type { AccountRow, AccountRowUpdate } from './accounts.table.ts'

export async function insertAccount(db: Db, account: { uuid: string; created: string }): Promise<AccountRow> {
  return db.insertInto('accounts').values(account).returningAll().executeTakeFirstOrThrow()
}

export async function findAccount(db: Db, id: number): Promise<AccountRow | undefined> {
  return db.selectFrom('accounts').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * Serializes writes that check an account-wide invariant (quotas, "keep one unrestricted user"):
 * a row lock on PostgreSQL; SQLite's write transactions are already exclusive.
 */
export async function lockAccount(db: Db, accountId: number): Promise<void> {
  await forUpdate(db, db.selectFrom('accounts').select('id').where('id', '=', accountId)).execute()
}

/** Changes the account's contact fields. */
export async function updateAccount(db: Db, id: number, values: AccountRowUpdate): Promise<AccountRow> {
  return db.updateTable('accounts').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}
