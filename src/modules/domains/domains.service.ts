import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { badRequest, ErrorCollector } from '../../common/errors.ts'
import { type ListQuery, mapPage } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { nowTimestamp } from '../../common/time.ts'
import { recordEvents } from '../events/events.service.ts'
import { assertGlobalGrant, grantedListScope, grantToCreator } from '../grants/authorize.ts'
import { accessAccountEntity } from '../grants/entity-access.ts'
import type { Permission } from '../grants/grant-types.ts'
import { deleteEntityGrants } from '../grants/grants.service.ts'
import { writeUnique } from '../vpcs/unique-write.ts'
import { isDomainName, isEmail, isIpAddress, normalizeName, roundTtlUp } from './dns-names.ts'
import { domainEvent } from './domain-events.ts'
import * as repo from './domains.repository.ts'
import type { CreateDomainBody, Domain, UpdateDomainBody } from './domains.schemas.ts'
import type { DomainRow, DomainType } from './domains.table.ts'

export interface DomainIds {
  domainId: number
}

const domainTaken = () => badRequest('Domain already exists', 'domain')

export function toDomain(row: DomainRow): Domain {
  return {
    id: row.id,
    type: row.type,
    domain: row.domain,
    tags: JSON.parse(row.tags) as string[],
    group: row.group,
    status: row.status,
    description: row.description,
    soa_email: row.soa_email,
    retry_sec: row.retry_sec,
    master_ips: JSON.parse(row.master_ips) as string[],
    axfr_ips: JSON.parse(row.axfr_ips) as string[],
    expire_sec: row.expire_sec,
    refresh_sec: row.refresh_sec,
    ttl_sec: row.ttl_sec,
    created: row.created,
    updated: row.updated,
  }
}

/**
 * The one way to reach a domain: one the caller's account does not have is not found (404) before
 * any grant is consulted; a restricted caller then needs `permission` on it (403). Writers lock it,
 * so changes to a zone and its records never interleave. Records reach their zone through it.
 */
export async function accessDomain(
  ctx: RequestContext,
  { domainId }: DomainIds,
  permission: Permission,
): Promise<DomainRow> {
  return accessAccountEntity(ctx, 'domain', permission, (options) =>
    repo.findAccountDomain(ctx.db, ctx.actor.accountId, domainId, options),
  )
}

interface Zone {
  domain: string
  type: DomainType
  soa_email: string
  master_ips: readonly string[]
  axfr_ips: readonly string[]
}

/** A primary zone needs its SOA email, a secondary one the addresses it transfers from. */
function checkZone(zone: Zone, errors: ErrorCollector): void {
  if (!isDomainName(zone.domain)) errors.add('Domain is not valid', 'domain')
  if (zone.type === 'master' && zone.soa_email === '') errors.add('SOA Email is required', 'soa_email')
  else if (zone.soa_email !== '' && !isEmail(zone.soa_email))
    errors.add('SOA Email is not valid', 'soa_email')
  if (zone.type === 'slave' && zone.master_ips.length === 0) {
    errors.add('At least one primary IP address is required', 'master_ips')
  }
  for (const field of ['master_ips', 'axfr_ips'] as const) {
    zone[field].forEach((address, i) => {
      if (!isIpAddress(address)) errors.add('Must be a valid IPv4 or IPv6 address', `${field}[${i}]`)
    })
  }
}

/** The zone's times, each rounded up to an allowed TTL. */
function zoneTimes(input: Partial<Record<'ttl_sec' | 'refresh_sec' | 'retry_sec' | 'expire_sec', number>>) {
  return {
    ...(input.ttl_sec !== undefined && { ttl_sec: roundTtlUp(input.ttl_sec) }),
    ...(input.refresh_sec !== undefined && { refresh_sec: roundTtlUp(input.refresh_sec) }),
    ...(input.retry_sec !== undefined && { retry_sec: roundTtlUp(input.retry_sec) }),
    ...(input.expire_sec !== undefined && { expire_sec: roundTtlUp(input.expire_sec) }),
  }
}

export async function listDomains(ctx: RequestContext, query: ListQuery): Promise<PageResult<Domain>> {
  return mapPage(await repo.listDomains(ctx.db, grantedListScope(ctx.actor), query), toDomain)
}

export async function getDomain(ctx: RequestContext, ids: DomainIds): Promise<Domain> {
  return toDomain(await accessDomain(ctx, ids, 'read_only'))
}

export async function createDomain(ctx: RequestContext, input: CreateDomainBody): Promise<Domain> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    await assertGlobalGrant(db, actor, 'add_domains')
    const zone: Zone = {
      domain: normalizeName(input.domain),
      type: input.type,
      soa_email: input.soa_email?.trim() ?? '',
      master_ips: input.master_ips ?? [],
      axfr_ips: input.axfr_ips ?? [],
    }
    const errors = new ErrorCollector()
    checkZone(zone, errors)
    if (errors.empty && (await repo.findDomainByName(db, actor.accountId, zone.domain))) {
      errors.add('Domain already exists', 'domain')
    }
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const row = await writeUnique(
      () =>
        repo.insertDomain(db, {
          account_id: actor.accountId,
          domain: zone.domain,
          type: zone.type,
          status: input.status ?? 'active',
          soa_email: zone.soa_email,
          description: input.description ?? '',
          group: input.group ?? '',
          master_ips: JSON.stringify(zone.master_ips),
          axfr_ips: JSON.stringify(zone.axfr_ips),
          ttl_sec: 0,
          refresh_sec: 0,
          retry_sec: 0,
          expire_sec: 0,
          ...zoneTimes(input),
          tags: JSON.stringify(input.tags ?? []),
          created: now,
          updated: now,
        }),
      domainTaken,
    )
    await grantToCreator(db, actor, 'domain', row.id)
    await recordEvents(db, [domainEvent(actor, 'domain_create', row, now)])
    return toDomain(row)
  })
}

export async function updateDomain(
  ctx: RequestContext,
  ids: DomainIds,
  input: UpdateDomainBody,
): Promise<Domain> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    const current = await accessDomain(tx, ids, 'read_write')
    const zone: Zone = {
      domain: input.domain === undefined ? current.domain : normalizeName(input.domain),
      type: input.type ?? current.type,
      soa_email: input.soa_email?.trim() ?? current.soa_email,
      master_ips: input.master_ips ?? (JSON.parse(current.master_ips) as string[]),
      axfr_ips: input.axfr_ips ?? (JSON.parse(current.axfr_ips) as string[]),
    }
    const errors = new ErrorCollector()
    checkZone(zone, errors)
    if (errors.empty && zone.domain !== current.domain) {
      if (await repo.findDomainByName(db, actor.accountId, zone.domain))
        errors.add('Domain already exists', 'domain')
    }
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const row = await writeUnique(
      () =>
        repo.updateDomain(db, current.id, {
          domain: zone.domain,
          type: zone.type,
          soa_email: zone.soa_email,
          master_ips: JSON.stringify(zone.master_ips),
          axfr_ips: JSON.stringify(zone.axfr_ips),
          ...(input.status !== undefined && { status: input.status }),
          ...(input.description !== undefined && { description: input.description }),
          ...(input.group !== undefined && { group: input.group }),
          ...(input.tags !== undefined && { tags: JSON.stringify(input.tags) }),
          ...zoneTimes(input),
          updated: now,
        }),
      domainTaken,
    )
    await recordEvents(db, [domainEvent(actor, 'domain_update', row, now)])
    return toDomain(row)
  })
}

/** Deletes the domain with all its records. */
export async function deleteDomain(ctx: RequestContext, ids: DomainIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessDomain(tx, ids, 'read_write')
    await repo.deleteDomain(tx.db, row.id)
    await deleteEntityGrants(tx.db, 'domain', row.id)
    await recordEvents(tx.db, [domainEvent(tx.actor, 'domain_delete', row, nowTimestamp(tx.clock))])
  })
}
