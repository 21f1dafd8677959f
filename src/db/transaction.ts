import type { Db } from './connect.ts'

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one, so a service can
 * be composed into a larger write (start-up seeding, a VPC created with its subnets) unchanged.
 * On SQLite the commit is a group commit: it resolves once the write is durable.
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db)
  return db.transaction().execute(work)
}
