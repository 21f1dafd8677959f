import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { badRequest, ErrorCollector } from '../../common/errors.ts'
import { type ListQuery, mapPage } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { isUniqueViolation } from '../../db/dialects/dialect.ts'
import { allocatePublicAddresses, releasePublicAddresses } from '../compute/instances/instances.service.ts'
import { recordEvents } from '../events/events.service.ts'
import { assertGlobalGrant, grantedListScope, grantToCreator } from '../grants/authorize.ts'
import { accessAccountEntity } from '../grants/entity-access.ts'
import type { Permission } from '../grants/grant-types.ts'
import { deleteEntityGrants } from '../grants/grants.service.ts'
import { checkRegionOffers } from '../regions/region-capabilities.ts'
import { findRegion } from '../regions/regions.service.ts'
import { loadBalancerEvent } from './loadbalancer-events.ts'
import * as repo from './loadbalancers.repository.ts'
import type { CreateLoadBalancerBody, LoadBalancer, UpdateLoadBalancerBody } from './loadbalancers.schemas.ts'
import type { LoadBalancerRow } from './loadbalancers.table.ts'

export interface LoadBalancerIds {
  loadbalancerId: number
}

const labelTaken = () => badRequest('Label must be unique among your load balancers', 'label')

/**
 * `balancer<id>`, or when a client already gave that label to another of the account's load
 * balancers, `balancer<id>-2` and so on: the client sent no label, so none of its own can clash.
 */
async function defaultLabel(db: Db, accountId: number, id: number): Promise<string> {
  for (let n = 1; ; n++) {
    const label = n === 1 ? `balancer${id}` : `balancer${id}-${n}`
    if ((await repo.findLoadBalancerByLabel(db, accountId, label)) === undefined) return label
  }
}

/** A write the label's unique index guards: a label taken in between the check and the write is refused the same way. */
async function uniqueLabel<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write()
  } catch (error) {
    if (isUniqueViolation(error)) throw labelTaken()
    throw error
  }
}

export function toLoadBalancer(row: LoadBalancerRow): LoadBalancer {
  return {
    id: row.id,
    label: row.label,
    region: row.region,
    hostname: row.hostname,
    ipv4: row.ipv4,
    ipv6: row.ipv6,
    created: row.created,
    updated: row.updated,
    client_conn_throttle: row.client_conn_throttle,
    tags: JSON.parse(row.tags) as string[],
    // No traffic passes through an emulated load balancer.
    transfer: { in: null, out: null, total: null },
  }
}

/**
 * The one way to reach a load balancer: one the caller's account does not have is not found (404)
 * before any grant is consulted; a restricted caller then needs `permission` on it (403).
 * Writers lock it, so one load balancer's changes never interleave.
 */
export async function accessLoadBalancer(
  ctx: RequestContext,
  { loadbalancerId }: LoadBalancerIds,
  permission: Permission,
): Promise<LoadBalancerRow> {
  return accessAccountEntity(ctx, 'loadbalancer', permission, (options) =>
    repo.findAccountLoadBalancer(ctx.db, ctx.actor.accountId, loadbalancerId, options),
  )
}

/** The DNS name of a load balancer's public IPv4 address in its region. */
const hostnameOf = (ipv4: string, region: string) =>
  `nb-${ipv4.replaceAll('.', '-')}.${region}.nodebalancer.cloudplane.test`

export async function listLoadBalancers(
  ctx: RequestContext,
  query: ListQuery,
): Promise<PageResult<LoadBalancer>> {
  return mapPage(await repo.listLoadBalancers(ctx.db, grantedListScope(ctx.actor), query), toLoadBalancer)
}

export async function getLoadBalancer(ctx: RequestContext, ids: LoadBalancerIds): Promise<LoadBalancer> {
  return toLoadBalancer(await accessLoadBalancer(ctx, ids, 'read_only'))
}

/** Creates a load balancer in a region that offers them, with its own public addresses. */
export async function createLoadBalancer(
  ctx: RequestContext,
  input: CreateLoadBalancerBody,
): Promise<LoadBalancer> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    await assertGlobalGrant(db, actor, 'add_loadbalancers')
    const errors = new ErrorCollector()
    const region = await findRegion(db, input.region)
    checkRegionOffers(region, 'NodeBalancers', errors)
    if (input.label !== undefined && (await repo.findLoadBalancerByLabel(db, actor.accountId, input.label))) {
      errors.add('Label must be unique among your load balancers', 'label')
    }
    errors.throwIfAny()
    const addresses = await allocatePublicAddresses(db, input.region)
    const ipv4 = addresses.ipv4
    const now = nowTimestamp(tx.clock)
    const values = {
      account_id: actor.accountId,
      // Unique until the id is known (the default label is `balancer<id>`): an address is the
      // region's alone.
      label: input.label ?? `balancer-${input.region}-${ipv4}`,
      region: input.region,
      hostname: hostnameOf(ipv4, input.region),
      ipv4,
      ipv6: addresses.ipv6.replace(/\/128$/, ''),
      client_conn_throttle: input.client_conn_throttle ?? 0,
      tags: JSON.stringify(input.tags ?? []),
      created: now,
      updated: now,
    }
    let row = await uniqueLabel(() => repo.insertLoadBalancer(db, values))
    if (input.label === undefined) {
      const label = await defaultLabel(db, actor.accountId, row.id)
      row = await uniqueLabel(() => repo.updateLoadBalancer(db, row.id, { label }))
    }
    await grantToCreator(db, actor, 'loadbalancer', row.id)
    await recordEvents(db, [loadBalancerEvent(actor, 'nodebalancer_create', row, now)])
    return toLoadBalancer(row)
  })
}

export async function updateLoadBalancer(
  ctx: RequestContext,
  ids: LoadBalancerIds,
  input: UpdateLoadBalancerBody,
): Promise<LoadBalancer> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    const current = await accessLoadBalancer(tx, ids, 'read_write')
    if (input.label !== undefined && input.label !== current.label) {
      if (await repo.findLoadBalancerByLabel(db, actor.accountId, input.label)) throw labelTaken()
    }
    const now = nowTimestamp(tx.clock)
    const changes = {
      ...(input.label !== undefined && { label: input.label }),
      ...(input.client_conn_throttle !== undefined && { client_conn_throttle: input.client_conn_throttle }),
      ...(input.tags !== undefined && { tags: JSON.stringify(input.tags) }),
      updated: now,
    }
    const row = await uniqueLabel(() => repo.updateLoadBalancer(db, current.id, changes))
    await recordEvents(db, [loadBalancerEvent(actor, 'nodebalancer_update', row, now)])
    return toLoadBalancer(row)
  })
}

export async function deleteLoadBalancer(ctx: RequestContext, ids: LoadBalancerIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessLoadBalancer(tx, ids, 'read_write')
    await repo.deleteLoadBalancer(tx.db, row.id)
    await releasePublicAddresses(tx.db, row.region, row.ipv4)
    await deleteEntityGrants(tx.db, 'loadbalancer', row.id)
    await recordEvents(tx.db, [
      loadBalancerEvent(tx.actor, 'nodebalancer_delete', row, nowTimestamp(tx.clock)),
    ])
  })
}
