import { sameNameColumns } from '../../common/filter-columns.ts'
import { pageOfFilteredList } from '../../common/filtered-list.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import type { GrantedListScope } from '../grants/authorize.ts'
import { grantRestriction } from '../grants/grant-filter.ts'
import type { LoadBalancerRow, LoadBalancerRowUpdate, NewLoadBalancerRow } from './loadbalancers.table.ts'

/** Filterable load balancer fields. */
const LOADBALANCER_FILTERS: FilterSpec = sameNameColumns({
  id: 'integer',
  label: 'string',
  region: 'string',
  hostname: 'string',
  ipv4: 'string',
  ipv6: 'string',
  created: 'timestamp',
  updated: 'timestamp',
})

/** The account's load balancer; `lock` holds its row until the transaction ends (PostgreSQL). */
export async function findAccountLoadBalancer(
  db: Db,
  accountId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<LoadBalancerRow | undefined> {
  const query = db
    .selectFrom('loadbalancers')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
  return (options.lock ? forUpdate(db, query) : query).executeTakeFirst()
}

export async function findLoadBalancerByLabel(
  db: Db,
  accountId: number,
  label: string,
): Promise<LoadBalancerRow | undefined> {
  return db
    .selectFrom('loadbalancers')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('label', '=', label)
    .executeTakeFirst()
}

/** The account's load balancers, or a restricted user's granted ones. */
export function listLoadBalancers(
  db: Db,
  scope: GrantedListScope,
  list: ListQuery,
): Promise<PageResult<LoadBalancerRow>> {
  const query = db.selectFrom('loadbalancers').selectAll().where('account_id', '=', scope.accountId)
  const restriction = grantRestriction('loadbalancer', 'id', scope.restrictedUserId)
  return pageOfFilteredList(db, query, { spec: LOADBALANCER_FILTERS, unique: 'id', restriction }, list)
}

export async function insertLoadBalancer(db: Db, row: NewLoadBalancerRow): Promise<LoadBalancerRow> {
  return db.insertInto('loadbalancers').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateLoadBalancer(
  db: Db,
  id: number,
  values: LoadBalancerRowUpdate,
): Promise<LoadBalancerRow> {
  return db
    .updateTable('loadbalancers')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteLoadBalancer(db: Db, id: number): Promise<void> {
  await db.deleteFrom('loadbalancers').where('id', '=', id).execute()
}
