import type { Db } from '../../../db/connect.ts'

/**
 * Instances one account may have, unless an operator raised it (`cloudplane account limits`):
 * without a limit, one account could hold every public address of a region
 * (docs/decisions.md#instance-limit).
 */
export const DEFAULT_INSTANCES_PER_ACCOUNT = 100

export async function instancesPerAccount(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('account_limits')
    .select('instances')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return row?.instances ?? DEFAULT_INSTANCES_PER_ACCOUNT
}

/** Sets (or with null, resets) the account's instance limit. */
export async function setInstancesPerAccount(db: Db, accountId: number, limit: number | null): Promise<void> {
  await db
    .insertInto('account_limits')
    .values({ account_id: accountId, vpcs_per_region: null, instances: limit })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ instances: limit }))
    .execute()
}

export async function countAccountInstances(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('compute_instances')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('n'))
    .where('account_id', '=', accountId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}
