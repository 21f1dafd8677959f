import { pageOfFilteredList } from '../../../common/filtered-list.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import type { FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import type { DomainRecordRow, DomainRecordRowUpdate, NewDomainRecordRow } from './records.table.ts'

/** Filterable record fields. */
const RECORD_FILTERS: FilterSpec = {
  id: { column: 'id', type: 'integer' },
  type: { column: 'type', type: 'string' },
  name: { column: 'name', type: 'string' },
  target: { column: 'target', type: 'string' },
  priority: { column: 'priority', type: 'integer' },
  weight: { column: 'weight', type: 'integer' },
  port: { column: 'port', type: 'integer' },
  service: { column: 'service', type: 'string', nullable: true },
  protocol: { column: 'protocol', type: 'string', nullable: true },
  tag: { column: 'tag', type: 'string', nullable: true },
  ttl_sec: { column: 'ttl_sec', type: 'integer' },
  created: { column: 'created', type: 'timestamp' },
  updated: { column: 'updated', type: 'timestamp' },
}

export async function findDomainRecord(
  db: Db,
  domainId: number,
  id: number,
): Promise<DomainRecordRow | undefined> {
  return db
    .selectFrom('domain_records')
    .selectAll()
    .where('id', '=', id)
    .where('domain_id', '=', domainId)
    .executeTakeFirst()
}

export async function listDomainRecords(
  db: Db,
  domainId: number,
  list: ListQuery,
): Promise<PageResult<DomainRecordRow>> {
  const query = db.selectFrom('domain_records').selectAll().where('domain_id', '=', domainId)
  return pageOfFilteredList(db, query, { spec: RECORD_FILTERS, unique: 'id' }, list)
}

export async function insertDomainRecord(db: Db, row: NewDomainRecordRow): Promise<DomainRecordRow> {
  return db.insertInto('domain_records').values(row).returningAll().executeTakeFirstOrThrow()
}

export async function updateDomainRecord(
  db: Db,
  id: number,
  values: DomainRecordRowUpdate,
): Promise<DomainRecordRow> {
  return db
    .updateTable('domain_records')
    .set(values)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow()
}

export async function deleteDomainRecord(db: Db, id: number): Promise<void> {
  await db.deleteFrom('domain_records').where('id', '=', id).execute()
}
