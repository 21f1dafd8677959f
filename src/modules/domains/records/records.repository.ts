import { filterFields } from '../../../common/filter-columns.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { Db } from '../../../db/connect.ts'
import { deleteRows, findRow, insertRow, pageOfRows, updateRow } from '../../../db/rows.ts'
import type { DomainRecordRowUpdate, NewDomainRecordRow } from './records.table.ts'

/** Filterable record fields. */
const RECORD_FILTERS = filterFields(
  {
    integer: ['id', 'priority', 'weight', 'port', 'ttl_sec'],
    string: ['type', 'name', 'target', 'service', 'protocol', 'tag'],
    timestamp: ['created', 'updated'],
  },
  { nullable: ['service', 'protocol', 'tag'] },
)

export const findDomainRecord = (db: Db, domainId: number, id: number) =>
  findRow(db, 'domain_records', { id, domain_id: domainId })

export const listDomainRecords = (db: Db, domainId: number, list: ListQuery) =>
  pageOfRows(db, 'domain_records', { domain_id: domainId }, { spec: RECORD_FILTERS, unique: 'id' }, list)

export const insertDomainRecord = (db: Db, row: NewDomainRecordRow) => insertRow(db, 'domain_records', row)

export const updateDomainRecord = (db: Db, id: number, values: DomainRecordRowUpdate) =>
  updateRow(db, 'domain_records', { id }, values)

export const deleteDomainRecord = (db: Db, id: number) => deleteRows(db, 'domain_records', { id })
