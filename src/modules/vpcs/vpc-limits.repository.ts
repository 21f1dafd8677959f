import type { Db } from '../../db/connect.ts'
import { findValue, upsertRow } from '../../db/rows.ts'

/**
 * The product limit of VPCs per region per account (docs/service-facts.md#vpc-limits), unless an
 * operator raised it.
 */
export const DEFAULT_VPCS_PER_REGION = 10

export async function vpcsPerRegion(db: Db, accountId: number): Promise<number> {
  return (
    (await findValue(db, 'account_limits', 'vpcs_per_region', { account_id: accountId })) ??
    DEFAULT_VPCS_PER_REGION
  )
}

/** Sets (or with null, resets) the account's VPC limit per region; its other limits stay as they are. */
export const setVpcsPerRegion = (db: Db, accountId: number, limit: number | null) =>
  upsertRow(db, 'account_limits', { account_id: accountId, vpcs_per_region: limit }, ['account_id'])
