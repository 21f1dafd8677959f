import { filterFields } from '../../common/filter-columns.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { Db } from '../../db/connect.ts'
import { deleteRows, findRow, insertRow, pageOfRows, type RowLock, updateRow } from '../../db/rows.ts'
import type { GrantedListScope } from '../grants/authorize.ts'
import { grantRestriction } from '../grants/grant-filter.ts'
import type { LoadBalancerRowUpdate, NewLoadBalancerRow } from './loadbalancers.table.ts'

/** Filterable load balancer fields. */
const LOADBALANCER_FILTERS = filterFields({
  integer: ['id'],
  string: ['label', 'region', 'hostname', 'ipv4', 'ipv6'],
  timestamp: ['created', 'updated'],
})

/** The account's load balancer; `lock` holds its row until the transaction ends (PostgreSQL). */
export const findAccountLoadBalancer = (db: Db, accountId: number, id: number, options?: RowLock) =>
  findRow(db, 'loadbalancers', { id, account_id: accountId }, options)

export const findLoadBalancerByLabel = (db: Db, accountId: number, label: string) =>
  findRow(db, 'loadbalancers', { account_id: accountId, label })

/** The account's load balancers, or a restricted user's granted ones. */
export function listLoadBalancers(db: Db, scope: GrantedListScope, list: ListQuery) {
  const restriction = grantRestriction('loadbalancer', 'id', scope.restrictedUserId)
  const fields = { spec: LOADBALANCER_FILTERS, unique: 'id', restriction }
  return pageOfRows(db, 'loadbalancers', { account_id: scope.accountId }, fields, list)
}

export const insertLoadBalancer = (db: Db, row: NewLoadBalancerRow) => insertRow(db, 'loadbalancers', row)

export const updateLoadBalancer = (db: Db, id: number, values: LoadBalancerRowUpdate) =>
  updateRow(db, 'loadbalancers', { id }, values)

export const deleteLoadBalancer = (db: Db, id: number) => deleteRows(db, 'loadbalancers', { id })
