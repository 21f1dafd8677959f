import type { Db } from '../../db/connect.ts'

/**
 * The product limit of VPCs per region per account (docs/service-facts.md#vpc-limits), unless an
 * operator raised it.
 */
export const DEFAULT_VPCS_PER_REGION = 10

export async function vpcsPerRegion(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('account_limits')
    .select('vpcs_per_region')
    .where('account_id', '=', accountId)
    .executeTakeFirst()
  return row?.vpcs_per_region ?? DEFAULT_VPCS_PER_REGION
}

/** Sets (or with null, resets) the account's VPC limit per region. */
export async function setVpcsPerRegion(db: Db, accountId: number, limit: number | null): Promise<void> {
  await db
    .insertInto('account_limits')
    .values({ account_id: accountId, vpcs_per_region: limit })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ vpcs_per_region: limit }))
    .execute()
}
