import { pageOfFilteredList } from '../../common/filtered-list.ts'
import type { ListQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import type { GrantedListScope } from '../grants/authorize.ts'
import { grantRestriction } from '../grants/grant-filter.ts'
import type { DomainRow, DomainRowUpdate, NewDomainRow } from './domains.table.ts'

/** Filterable domain fields. */
const DOMAIN_FILTERS: FilterSpec = {
  id: { column: 'id', type: 'integer' },
  domain: { column: 'domain', type: 'string' },
  type: { column: 'type', type: 'string' },
  status: { column: 'status', type: 'string' },
  soa_email: { column: 'soa_email', type: 'string' },
  group: { column: 'group', type: 'string' },
  description: { column: 'description', type: 'string' },
  ttl_sec: { column: 'ttl_sec', type: 'integer' },
  created: { column: 'created', type: 'timestamp' },
  updated: { column: 'updated', type: 'timestamp' },
}

/** The account's domain; `lock` holds its row until the transaction ends (PostgreSQL). */
export async function findAccountDomain(
  db: Db,
  accountId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<DomainRow | undefined> {
  const query = db.selectFrom('domains').selectAll().where('id', '=', id).where('account_id', '=', accountId)
  return (options.lock ? forUpdate(db, query) : query).executeTakeFirst()
}

export async function findDomainByName(
  db: Db,
  accountId: number,
  domain: string,
): Promise<DomainRow | undefined> {
  return db
    .selectFrom('domains')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('domain', '=', domain)
    .executeTakeFirst()
}

export async function listDomains(
  db: Db,
  scope: GrantedListScope,
  list: ListQuery,
): Promise<PageResult<DomainRow>> {
  const query = db.selectFrom('domains').selectAll().where('account_id', '=', scope.accountId)
  const restriction = grantRestriction('domain', 'id', scope.restrictedUserId)
  return pageOfFilteredList(db, query, { spec: DOMAIN_FILTERS, unique: 'id', restriction }, list)
}

export async function insertDomain(db: Db, row: NewDomainRow): Promise<DomainRow> {
  return db.insertInto('domains').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateDomain(db: Db, id: number, values: DomainRowUpdate): Promise<DomainRow> {
  return db.updateTable('domains').set(values).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

/** Deletes the domain; its records go with it (the foreign key cascades). */
export async function deleteDomain(db: Db, id: number): Promise<void> {
  await db.deleteFrom('domain_records').where('domain_id', '=', id).execute()
  await db.deleteFrom('domains').where('id', '=', id).execute()
}
