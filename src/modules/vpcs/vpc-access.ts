import type { RequestContext } from '../../common/context.ts'
import { notFound } from '../../common/errors.ts'
import { assertEntityGrant } from '../grants/authorize.ts'
import type { Permission } from '../grants/grant-types.ts'
import * as repo from './vpcs.repository.ts'
import type { VpcRow } from './vpcs.table.ts'

/**
 * The one rule for reaching a VPC: one the caller's account does not have is not found (404),
 * before any grant is consulted; a restricted caller then needs `permission` on it (403). `found`
 * is what the caller's own lookup in the account returned (a row, its JSON, the row with its
 * subnets), so a hot path keeps its single query.
 */
export async function grantedVpc<T>(
  ctx: RequestContext,
  { vpcId }: { vpcId: number },
  found: T | undefined,
  permission: Permission,
): Promise<T> {
  if (found === undefined) throw notFound()
  await assertEntityGrant(ctx.db, ctx.actor, 'vpc', vpcId, permission)
  return found
}

/**
 * A VPC of the caller's account that the caller holds `permission` on (see `grantedVpc`); with
 * `lock`, locked until the transaction ends (PostgreSQL), to change what it holds.
 */
export async function accessVpc(
  ctx: RequestContext,
  ids: { vpcId: number },
  permission: Permission,
  { lock = false }: { lock?: boolean } = {},
): Promise<VpcRow> {
  const find = lock ? repo.lockAccountVpc : repo.findAccountVpc
  return grantedVpc(ctx, ids, await find(ctx.db, ctx.actor.accountId, ids.vpcId), permission)
}
