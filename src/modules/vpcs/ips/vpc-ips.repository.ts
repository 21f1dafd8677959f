import { filterFields } from '../../../common/filter-columns.ts'
import { listStatements, type PageRequest, paginate } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { Db } from '../../../db/connect.ts'
import { listCriteria } from '../../../db/list-criteria.ts'
import { defineShaped, stableSlot } from '../../../db/prepared.ts'
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

/**
 * The VPC IP list's statements, one set per shape: the X-Filter as sent, whether the list is of
 * one VPC, and whether grants restrict it. The account, the VPC and the restricted user are slots,
 * so one statement serves every caller (the union of two joins cost more to build than to run).
 */
const vpcIpListStatements = defineShaped(
  'vpc ip list',
  (db, shape: { filter: string | null; oneVpc: boolean; restricted: boolean }, dialect) => {
    const { where, order } = listCriteria({
      filter: shape.filter ?? undefined,
      spec: VPC_IP_FILTERS,
      dialect,
      order: { unique: ['ips.interface_id', 'ips.ord'] },
    })
    const query = vpcIpRecords(db, {
      accountId: stableSlot<number>(dialect, 'account'),
      ...(shape.oneVpc && { vpcId: stableSlot<number>(dialect, 'vpc') }),
      // Inside each part of the union, where it narrows the join early.
      ...(shape.restricted && {
        vpcCondition: grantedEntities('vpc', 'v.id', stableSlot<number>(dialect, 'user')),
      }),
    })
    const { count, page } = listStatements(where ? query.where(where) : query, order, dialect)
    return { count, page }
  },
)

/** A page of VPC IP records: an interface's address first, then its routed ranges. */
export async function listVpcIps(
  db: Db,
  scope: VpcIpListScope,
  filter: string | undefined,
  page: PageRequest,
): Promise<PageResult<VpcIpRow>> {
  const list = vpcIpListStatements(db, {
    filter: filter ?? null,
    oneVpc: scope.vpcId !== undefined,
    restricted: scope.restrictedUserId !== null,
  })
  const values = { account: scope.accountId, vpc: scope.vpcId ?? null, user: scope.restrictedUserId }
  return paginate(db, list, values, page) as Promise<PageResult<VpcIpRow>>
}
