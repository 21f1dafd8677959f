import { filterFields } from '../../common/filter-columns.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { Db } from '../../db/connect.ts'
import { deleteRows, findRow, insertRow, pageOfRows, type RowLock, updateRow } from '../../db/rows.ts'
import type { GrantedListScope } from '../grants/authorize.ts'
import { grantRestriction } from '../grants/grant-filter.ts'
import type { DomainRowUpdate, NewDomainRow } from './domains.table.ts'

/** Filterable domain fields. */
const DOMAIN_FILTERS = filterFields({
  integer: ['id', 'ttl_sec'],
  string: ['domain', 'type', 'status', 'soa_email', 'group', 'description'],
  timestamp: ['created', 'updated'],
})

/** The account's domain; `lock` holds its row until the transaction ends (PostgreSQL). */
export const findAccountDomain = (db: Db, accountId: number, id: number, options?: RowLock) =>
  findRow(db, 'domains', { id, account_id: accountId }, options)

export const findDomainByName = (db: Db, accountId: number, domain: string) =>
  findRow(db, 'domains', { account_id: accountId, domain })

export function listDomains(db: Db, scope: GrantedListScope, list: ListQuery) {
  const restriction = grantRestriction('domain', 'id', scope.restrictedUserId)
  const fields = { spec: DOMAIN_FILTERS, unique: 'id', restriction }
  return pageOfRows(db, 'domains', { account_id: scope.accountId }, fields, list)
}

export const insertDomain = (db: Db, row: NewDomainRow) => insertRow(db, 'domains', row)

export const updateDomain = (db: Db, id: number, values: DomainRowUpdate) =>
  updateRow(db, 'domains', { id }, values)

/** Deletes the domain; its records go with it (the foreign key cascades). */
export async function deleteDomain(db: Db, id: number): Promise<void> {
  await deleteRows(db, 'domain_records', { domain_id: id })
  await deleteRows(db, 'domains', { id })
}
