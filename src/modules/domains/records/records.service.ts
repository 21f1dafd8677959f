import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { ErrorCollector, foundOrNotFound } from '../../../common/errors.ts'
import { type ListQuery, mapPage } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { nowTimestamp } from '../../../common/time.ts'
import { recordEvents } from '../../events/events.service.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { domainRecordEvent } from '../domain-events.ts'
import { accessDomain, type DomainIds } from '../domains.service.ts'
import type { DomainRow } from '../domains.table.ts'
import { planRecord } from './record-rules.ts'
import * as repo from './records.repository.ts'
import type { CreateDomainRecordBody, DomainRecord, UpdateDomainRecordBody } from './records.schemas.ts'
import type { DomainRecordRow } from './records.table.ts'

export interface DomainRecordIds extends DomainIds {
  recordId: number
}

export function toDomainRecord(row: DomainRecordRow): DomainRecord {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    target: row.target,
    priority: row.priority,
    weight: row.weight,
    port: row.port,
    service: row.service,
    protocol: row.protocol,
    ttl_sec: row.ttl_sec,
    tag: row.tag,
    created: row.created,
    updated: row.updated,
  }
}

/** A record is reached through its domain (`accessDomain`), then found among the domain's. */
export async function accessDomainRecord(
  ctx: RequestContext,
  { domainId, recordId }: DomainRecordIds,
  permission: Permission,
): Promise<{ domain: DomainRow; record: DomainRecordRow }> {
  const domain = await accessDomain(ctx, { domainId }, permission)
  return { domain, record: foundOrNotFound(await repo.findDomainRecord(ctx.db, domain.id, recordId)) }
}

export async function listDomainRecords(
  ctx: RequestContext,
  ids: DomainIds,
  query: ListQuery,
): Promise<PageResult<DomainRecord>> {
  const domain = await accessDomain(ctx, ids, 'read_only')
  return mapPage(await repo.listDomainRecords(ctx.db, domain.id, query), toDomainRecord)
}

export async function getDomainRecord(ctx: RequestContext, ids: DomainRecordIds): Promise<DomainRecord> {
  return toDomainRecord((await accessDomainRecord(ctx, ids, 'read_only')).record)
}

export async function createDomainRecord(
  ctx: RequestContext,
  ids: DomainIds,
  input: CreateDomainRecordBody,
): Promise<DomainRecord> {
  return inContextTransaction(ctx, async (tx) => {
    const domain = await accessDomain(tx, ids, 'read_write')
    const errors = new ErrorCollector()
    const values = planRecord(input.type, input, domain.domain, errors)
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const row = await repo.insertDomainRecord(tx.db, {
      domain_id: domain.id,
      type: input.type,
      ...values,
      created: now,
      updated: now,
    })
    await recordEvents(tx.db, [domainRecordEvent(tx.actor, 'domain_record_create', domain, row, now)])
    return toDomainRecord(row)
  })
}

/** Changes a record under its type's rules, applied to the record as it will be. */
export async function updateDomainRecord(
  ctx: RequestContext,
  ids: DomainRecordIds,
  input: UpdateDomainRecordBody,
): Promise<DomainRecord> {
  return inContextTransaction(ctx, async (tx) => {
    const { domain, record } = await accessDomainRecord(tx, ids, 'read_write')
    const merged = { ...toDomainRecord(record), ...withoutUndefined(input) }
    const errors = new ErrorCollector()
    const values = planRecord(record.type, merged, domain.domain, errors)
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const row = await repo.updateDomainRecord(tx.db, record.id, { ...values, updated: now })
    await recordEvents(tx.db, [domainRecordEvent(tx.actor, 'domain_record_update', domain, row, now)])
    return toDomainRecord(row)
  })
}

export async function deleteDomainRecord(ctx: RequestContext, ids: DomainRecordIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const { domain, record } = await accessDomainRecord(tx, ids, 'read_write')
    await repo.deleteDomainRecord(tx.db, record.id)
    await recordEvents(tx.db, [
      domainRecordEvent(tx.actor, 'domain_record_delete', domain, record, nowTimestamp(tx.clock)),
    ])
  })
}

const withoutUndefined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>
