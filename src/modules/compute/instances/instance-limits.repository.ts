import type { Db } from '../../../db/connect.ts'
import { countRows, findValue, upsertRow } from '../../../db/rows.ts'

/**
 * Instances one account may have, unless an operator raised it (`cloudplane account limits`):
 * without a limit, one account could hold every public address of a region
 * (docs/decisions.md#instance-limit).
 */
export const DEFAULT_INSTANCES_PER_ACCOUNT = 100

export async function instancesPerAccount(db: Db, accountId: number): Promise<number> {
  return (
    (await findValue(db, 'account_limits', 'instances', { account_id: accountId })) ??
    DEFAULT_INSTANCES_PER_ACCOUNT
  )
}

/** Sets (or with null, resets) the account's instance limit; its other limits stay as they are. */
export const setInstancesPerAccount = (db: Db, accountId: number, limit: number | null) =>
  upsertRow(db, 'account_limits', { account_id: accountId, instances: limit }, ['account_id'])

export const countAccountInstances = (db: Db, accountId: number) =>
  countRows(db, 'compute_instances', { account_id: accountId })
