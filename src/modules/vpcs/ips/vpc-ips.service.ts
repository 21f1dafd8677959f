import { formatIpv4, storedRange, subnetMask } from '../../../common/cidr.ts'
import type { RequestContext } from '../../../common/context.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { grantedListScope } from '../../grants/authorize.ts'
import { accessVpc } from '../vpc-access.ts'
import * as repo from './vpc-ips.repository.ts'
import type { VpcIp } from './vpc-ips.schemas.ts'

/**
 * Gateway = the subnet's first host, with the subnet's prefix and mask
 * (docs/service-facts.md#vpc-ip-records).
 */
function toVpcIp(row: repo.VpcIpRow): VpcIp {
  const range = storedRange(row.subnet_ipv4)
  return {
    address: row.address,
    address_range: row.address_range,
    vpc_id: row.vpc_id,
    subnet_id: row.subnet_id,
    region: row.region,
    linode_id: row.linode_id,
    config_id: row.config_id,
    interface_id: row.interface_id,
    active: row.active === true || row.active === 1,
    nat_1_1: row.nat_1_1,
    gateway: formatIpv4(range.first + 1),
    prefix: range.prefix,
    subnet_mask: subnetMask(range.prefix),
  }
}

/** Every VPC address of the account; restricted users see those of the VPCs they hold a grant on. */
export async function listAccountVpcIps(ctx: RequestContext, query: ListQuery): Promise<PageResult<VpcIp>> {
  return mapPage(
    await repo.listVpcIps(ctx.db, grantedListScope(ctx.actor), query.filter, query.page),
    toVpcIp,
  )
}

export async function listVpcIpsOfVpc(
  ctx: RequestContext,
  ids: { vpcId: number },
  query: ListQuery,
): Promise<PageResult<VpcIp>> {
  const vpc = await accessVpc(ctx, ids, 'read_only')
  const scope = { accountId: ctx.actor.accountId, vpcId: vpc.id, restrictedUserId: null }
  return mapPage(await repo.listVpcIps(ctx.db, scope, query.filter, query.page), toVpcIp)
}
