import { setTimeout as sleep } from 'node:timers/promises'
import type { Db } from './connect.ts'
import { isTransientConflict } from './connection-loss.ts'

/** Tries of a write that PostgreSQL rolled back as a deadlock or a serialization failure. */
const ATTEMPTS = 3

/**
 * Runs `work` in a transaction, or inside the caller's when `db` already is one, so a service can
 * be composed into a larger write (start-up seeding, a VPC created with its subnets) unchanged.
 * On SQLite the commit is a group commit: it resolves once the write is durable.
 *
 * A transaction PostgreSQL chose to roll back as a deadlock's victim (or a serialization failure)
 * changed nothing, so it runs again, after a short random pause that parts the two writers; only
 * the outermost transaction retries, as only it can start over.
 */
export async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  if (db.isTransaction) return work(db)
  for (let attempt = 1; ; attempt++) {
    try {
      return await db.transaction().execute(work)
    } catch (error) {
      if (attempt >= ATTEMPTS || !isTransientConflict(error)) throw error
      await sleep(5 + Math.floor(Math.random() * 20 * attempt))
    }
  }
}
