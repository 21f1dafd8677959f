import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type OrderTerm, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'

export interface VpcIpRow {
  interface_id: number
  ord: number
  address: string | null
  address_range: string | null
  vpc_id: number
  subnet_id: number
  region: string
  linode_id: number
  config_id: number
  active: boolean | number
  nat_1_1: string | null
  subnet_ipv4: string
}

export interface VpcIpScope {
  accountId: number
  /** Only this VPC, or every VPC of the account. */
  vpcId?: number
  /** Extra condition on `vpcs.id` (grants of a restricted user). */
  vpcCondition?: RawBuilder<SqlBool>
}

/**
 * The records as one derived table `ips`: each VPC interface's address, plus one row per routed
 * range, so that X-Filter, counting and paging all happen in SQL.
 */
function records(db: Db, scope: VpcIpScope) {
  let addresses = db
    .selectFrom('compute_interfaces as i')
    .innerJoin('subnets as s', 's.id', 'i.subnet_id')
    .innerJoin('vpcs as v', 'v.id', 's.vpc_id')
    .select([
      'i.id as interface_id',
      sql<number>`0`.as('ord'),
      'i.ipv4_vpc as address',
      sql<string | null>`null`.as('address_range'),
      's.vpc_id as vpc_id',
      'i.subnet_id as subnet_id',
      'v.region as region',
      'i.instance_id as linode_id',
      'i.config_id as config_id',
      'i.active as active',
      'i.nat_1_1 as nat_1_1',
      's.ipv4 as subnet_ipv4',
    ])
    .where('v.account_id', '=', scope.accountId)
  if (scope.vpcId !== undefined) addresses = addresses.where('v.id', '=', scope.vpcId)
  if (scope.vpcCondition) addresses = addresses.where(scope.vpcCondition)
  let ranges = db
    .selectFrom('compute_interface_ranges as r')
    .innerJoin('compute_interfaces as i', 'i.id', 'r.interface_id')
    .innerJoin('subnets as s', 's.id', 'i.subnet_id')
    .innerJoin('vpcs as v', 'v.id', 's.vpc_id')
    .select([
      'i.id as interface_id',
      sql<number>`r.position + 1`.as('ord'),
      sql<string | null>`null`.as('address'),
      'r.range as address_range',
      's.vpc_id as vpc_id',
      'i.subnet_id as subnet_id',
      'v.region as region',
      'i.instance_id as linode_id',
      'i.config_id as config_id',
      'i.active as active',
      sql<string | null>`null`.as('nat_1_1'),
      's.ipv4 as subnet_ipv4',
    ])
    .where('v.account_id', '=', scope.accountId)
  if (scope.vpcId !== undefined) ranges = ranges.where('v.id', '=', scope.vpcId)
  if (scope.vpcCondition) ranges = ranges.where(scope.vpcCondition)
  return db.selectFrom(addresses.unionAll(ranges).as('ips')).selectAll()
}

export async function listVpcIps(
  db: Db,
  scope: VpcIpScope,
  page: PageRequest,
  where: RawBuilder<SqlBool> | undefined,
  order: OrderTerm[],
): Promise<PageResult<VpcIpRow>> {
  let query = records(db, scope)
  if (where) query = query.where(where)
  return paginate(query, page, order) as Promise<PageResult<VpcIpRow>>
}
