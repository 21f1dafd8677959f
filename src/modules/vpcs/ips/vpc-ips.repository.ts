import { filterFields } from '../../../common/filter-columns.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { listCriteria, pageByCriteria } from '../../../db/list-criteria.ts'
import { grantedEntities } from '../../grants/grant-filter.ts'
import { vpcIpRecords } from '../subnets/subnet-attachments.repository.ts'

/** Filterable VPC IP fields, added in 4.173.1 (docs/service-facts.md#filterable-fields). */
export const VPC_IP_FILTERS = filterFields(
  { boolean: ['active'], integer: ['config_id', 'linode_id', 'vpc_id'], string: ['region'] },
  { column: (field) => `ips.${field}` },
)

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

/** Which records a list shows: an account's, of one VPC or of those a restricted user is granted. */
export interface VpcIpListScope {
  accountId: number
  /** Only this VPC, or every VPC of the account. */
  vpcId?: number
  /** The restricted user whose grants keep a VPC's records in the list; null: no restriction. */
  restrictedUserId: number | null
}

/** A page of VPC IP records: an interface's address first, then its routed ranges. */
export async function listVpcIps(
  db: Db,
  scope: VpcIpListScope,
  filter: string | undefined,
  page: PageRequest,
): Promise<PageResult<VpcIpRow>> {
  const order = { unique: ['ips.interface_id', 'ips.ord'] }
  const criteria = listCriteria({ filter, spec: VPC_IP_FILTERS, dialect: dialectOf(db), order })
  const query = vpcIpRecords(db, {
    accountId: scope.accountId,
    ...(scope.vpcId !== undefined && { vpcId: scope.vpcId }),
    // Inside each part of the union, where it narrows the join early.
    ...(scope.restrictedUserId !== null && {
      vpcCondition: grantedEntities('vpc', 'v.id', scope.restrictedUserId),
    }),
  })
  return pageByCriteria(db, query, criteria, page) as Promise<PageResult<VpcIpRow>>
}
