import { sql } from 'kysely'
import { formatIpv4, storedRange, subnetMask } from '../../../common/cidr.ts'
import { notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import type { Actor } from '../../auth/actor.ts'
import { assertEntityGrant, grantedOnly } from '../../grants/authorize.ts'
import { findAccountVpc } from '../vpcs.repository.ts'
import * as repo from './vpc-ips.repository.ts'
import type { VpcIp } from './vpc-ips.schemas.ts'

/** Filterable VPC IP fields (api-facts 2.2, added in 4.173.1). */
const VPC_IP_FILTERS: FilterSpec = {
  active: { column: 'ips.active', type: 'boolean' },
  config_id: { column: 'ips.config_id', type: 'integer' },
  linode_id: { column: 'ips.linode_id', type: 'integer' },
  region: { column: 'ips.region', type: 'string' },
  vpc_id: { column: 'ips.vpc_id', type: 'integer' },
}

/** Gateway = the subnet's first host, with the subnet's prefix and mask (api-facts 11b). */
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

async function list(
  db: Db,
  scope: repo.VpcIpScope,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<VpcIp>> {
  const compiled = compileFilter(filter, VPC_IP_FILTERS, dialectOf(db))
  const direction = compiled.order?.direction ?? 'asc'
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    { expression: sql.ref('ips.interface_id'), direction },
    { expression: sql.ref('ips.ord'), direction },
  ]
  return mapPage(await repo.listVpcIps(db, scope, page, compiled.where, order), toVpcIp)
}

/** Every VPC address of the account; restricted users see those of the VPCs they hold a grant on. */
export async function listAccountVpcIps(
  db: Db,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<VpcIp>> {
  const granted = grantedOnly(actor, 'vpc', 'v.id')
  return list(db, { accountId: actor.accountId, ...(granted && { vpcCondition: granted }) }, page, filter)
}

export async function listVpcIpsOfVpc(
  db: Db,
  actor: Actor,
  vpcId: number,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<VpcIp>> {
  const vpc = await findAccountVpc(db, actor.accountId, vpcId)
  if (vpc === undefined) throw notFound()
  await assertEntityGrant(db, actor, 'vpc', vpc.id, 'read_only')
  return list(db, { accountId: actor.accountId, vpcId: vpc.id }, page, filter)
}
