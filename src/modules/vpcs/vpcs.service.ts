import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { badRequest, ErrorCollector } from '../../common/errors.ts'
import type { ListQuery } from '../../common/pagination.ts'
import { pageJson } from '../../common/rendered-json.ts'
import { pageKey, renderedPagesOf } from '../../common/rendered-page-cache.ts'
import { nowTimestamp } from '../../common/time.ts'
import { CREDENTIALS_COUNTER } from '../../db/change-counters.ts'
import type { Db } from '../../db/connect.ts'
import { lockAccount } from '../accounts/accounts.service.ts'
import { confirmedRead } from '../auth/confirmed-read.ts'
import { recordEvents } from '../events/events.service.ts'
import { assertGlobalGrant, grantedListScope, grantToCreator } from '../grants/authorize.ts'
import { deleteEntityGrants } from '../grants/grants.service.ts'
import { checkRegionOffers } from '../regions/region-capabilities.ts'
import { findRegion } from '../regions/regions.service.ts'
import { listAttachmentsOfVpcs } from './subnets/subnet-attachments.repository.ts'
import { insertSubnets, listSubnetsOfVpcs, lockSubnetsOfVpc } from './subnets/subnets.repository.ts'
import { checkNewSubnets, groupAttachments, subnetInUse, toSubnet } from './subnets/subnets.service.ts'
import type { SubnetRow } from './subnets/subnets.table.ts'
import { writeUnique } from './unique-write.ts'
import { accessVpc, grantedVpc } from './vpc-access.ts'
import { subnetEvent, vpcEvent } from './vpc-events.ts'
import { vpcsPerRegion } from './vpc-limits.repository.ts'
import * as repo from './vpcs.repository.ts'
import type { CreateVpcBody, UpdateVpcBody, Vpc } from './vpcs.schemas.ts'
import type { VpcRow } from './vpcs.table.ts'

export { type AttachableSubnet, accessSubnet, lockSubnetForInterface } from './subnets/subnets.service.ts'
export { accessVpc }

const labelTaken = () => badRequest('Label must be unique among your VPCs', 'label')

function toVpc(row: VpcRow, subnets: Vpc['subnets']): Vpc {
  return {
    id: row.id,
    label: row.label,
    description: row.description,
    region: row.region,
    subnets,
    created: row.created,
    updated: row.updated,
  }
}

/**
 * VPCs with their subnets and attached instances: one query for the subnets of all of them and
 * one for their interfaces, whatever the number of VPCs and subnets.
 */
async function assemble(db: Db, vpcs: VpcRow[]): Promise<Vpc[]> {
  const ids = vpcs.map((v) => v.id)
  const subnets = await listSubnetsOfVpcs(db, ids)
  const attachments = groupAttachments(subnets.length === 0 ? [] : await listAttachmentsOfVpcs(db, ids))
  const byVpc = new Map<number, Vpc['subnets']>()
  for (const subnet of subnets) {
    let list = byVpc.get(subnet.vpc_id)
    if (list === undefined) {
      list = []
      byVpc.set(subnet.vpc_id, list)
    }
    list.push(toSubnet(subnet, attachments.get(subnet.id)))
  }
  return vpcs.map((vpc) => toVpc(vpc, byVpc.get(vpc.id) ?? []))
}

/**
 * The list page as JSON text (see vpc-json.ts); a restricted user sees the VPCs granted to them.
 */
function listVpcsJson(ctx: RequestContext, query: ListQuery, laterFields: boolean): Promise<string> {
  return confirmedRead(ctx, async (c) => {
    const stamped = c.actor.unconfirmed !== undefined
    const { stamp, ...page } = await repo.listVpcJson(
      c.db,
      grantedListScope(c.actor),
      query.filter,
      query.page,
      {
        laterFields,
        stamped,
      },
    )
    return { value: pageJson(page), stamp }
  })
}

const VPCS_COUNTER = 'vpcs'

type Counters = () => Promise<ReadonlyMap<string, number>>

/**
 * An unrestricted caller's answer from those kept (common/rendered-page-cache.ts) in `list` under
 * `key` while no VPC, subnet or interface has changed since it was rendered; else rendered now,
 * and kept. The counters' read that stamps it also confirms an actor let in on the token cache's
 * remembered lookup (confirmed-read.ts): it was made after the request started. A restricted
 * user's answer depends on their grants too, and is rendered every time (`uncached`, which
 * confirms the actor in its own statement).
 */
async function keptAnswer(
  ctx: RequestContext,
  counters: Counters,
  list: string,
  key: (actor: RequestContext['actor']) => string,
  render: (ctx: RequestContext) => Promise<string>,
  uncached: (ctx: RequestContext) => Promise<string>,
): Promise<Buffer | string> {
  if (ctx.actor.user.restricted) return uncached(ctx)
  return confirmedRead<RequestContext, Buffer | string>(ctx, async (c) => {
    const read = await counters()
    const stamp = read.get(VPCS_COUNTER)
    const confirmed = read.get(CREDENTIALS_COUNTER)
    // Confirmed since the remembered lookup, the user may have become restricted.
    if (stamp === undefined || c.actor.user.restricted) return { value: await render(c), stamp: confirmed }
    const answers = renderedPagesOf(c.db, list)
    const k = key(c.actor)
    return { value: answers.get(k, stamp) ?? answers.set(k, await render(c), { stamp }), stamp: confirmed }
  })
}

/**
 * The list page: an unrestricted caller's from the pages kept per account (`keptAnswer`). With
 * `laterFields`, the fields of later versions (vpc-json.ts).
 */
export function listVpcsPage(
  ctx: RequestContext,
  query: ListQuery,
  counters: Counters,
  laterFields: boolean,
): Promise<Buffer | string> {
  return keptAnswer(
    ctx,
    counters,
    'vpc pages',
    (actor) => pageKey(actor.accountId, query),
    async (c) =>
      pageJson(
        await repo.listVpcJson(c.db, grantedListScope(c.actor), query.filter, query.page, { laterFields }),
      ),
    (c) => listVpcsJson(c, query, laterFields),
  )
}

/** A VPC: an unrestricted caller's from the VPCs kept per account (`keptAnswer`); else 404. */
export function getVpcAnswer(
  ctx: RequestContext,
  ids: { vpcId: number },
  counters: Counters,
  laterFields: boolean,
): Promise<Buffer | string> {
  return keptAnswer(
    ctx,
    counters,
    'vpcs',
    (actor) => `${actor.accountId}\n${ids.vpcId}`,
    async (c) =>
      grantedVpc(
        c,
        ids,
        (await repo.findAccountVpcJson(c.db, c.actor.accountId, ids.vpcId, { laterFields })).json,
        'read_only',
      ),
    (c) => getVpcJson(c, ids, laterFields),
  )
}

/** A VPC as JSON text (see vpc-json.ts), its statement confirming the actor (confirmed-read.ts). */
function getVpcJson(ctx: RequestContext, ids: { vpcId: number }, laterFields: boolean): Promise<string> {
  return confirmedRead(ctx, async (c) => {
    const stamped = c.actor.unconfirmed !== undefined
    const { json, stamp } = await repo.findAccountVpcJson(c.db, c.actor.accountId, ids.vpcId, {
      laterFields,
      stamped,
    })
    return { value: await grantedVpc(c, ids, json, 'read_only'), stamp }
  })
}

/** Creates the VPC and its subnets all-or-nothing (API rule 1), with their events. */
export async function createVpc(ctx: RequestContext, input: CreateVpcBody): Promise<Vpc> {
  return inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    await assertGlobalGrant(db, actor, 'add_vpcs')
    // Serializes VPC creation per account, so the per-region count below cannot be raced.
    await lockAccount(tx)
    const errors = new ErrorCollector()
    if ((await repo.findVpcByLabel(db, actor.accountId, input.label)) !== undefined) {
      errors.add('Label must be unique among your VPCs', 'label')
    }
    const region = await findRegion(db, input.region)
    if (checkRegionOffers(region, 'VPCs', errors)) {
      const limit = await vpcsPerRegion(db, actor.accountId)
      if ((await repo.countVpcsInRegion(db, actor.accountId, region.id)) >= limit) {
        errors.add(`You can have at most ${limit} VPCs in region ${region.id}`, 'region')
      }
    }
    const subnets = input.subnets ?? []
    checkNewSubnets(subnets, [], errors, (i, name) => `subnets[${i}].${name}`)
    errors.throwIfAny()

    const now = nowTimestamp(tx.clock)
    const row = {
      account_id: actor.accountId,
      label: input.label,
      description: input.description ?? '',
      region: input.region,
      created: now,
      updated: now,
    }
    const vpc = await writeUnique(() => repo.insertVpc(db, row), labelTaken)
    const inserted = await insertSubnets(
      db,
      subnets.map((s) => ({ vpc_id: vpc.id, label: s.label, ipv4: s.ipv4, created: now, updated: now })),
    )
    // RETURNING order is not promised; labels are unique within the VPC, so restore request order.
    const byLabel = new Map(inserted.map((s) => [s.label, s]))
    const created = subnets.map((s) => byLabel.get(s.label) as SubnetRow)
    await grantToCreator(db, actor, 'vpc', vpc.id)
    await recordEvents(db, [
      vpcEvent(actor, 'vpc_create', vpc, now),
      ...created.map((s) => subnetEvent(actor, 'subnet_create', vpc, s, now)),
    ])
    return toVpc(
      vpc,
      created.map((s) => toSubnet(s)),
    )
  })
}

/** Changes only label and description (API rule 4). */
export async function updateVpc(
  ctx: RequestContext,
  ids: { vpcId: number },
  input: UpdateVpcBody,
): Promise<Vpc> {
  const vpc = await inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    // Locked: the stored JSON is rebuilt from this row, so a concurrent update read before it
    // would write its own change over a stale copy of this one's.
    const row = await accessVpc(tx, ids, 'read_write', { lock: true })
    if (input.label !== undefined && input.label !== row.label) {
      if ((await repo.findVpcByLabel(db, actor.accountId, input.label)) !== undefined) throw labelTaken()
    }
    const now = nowTimestamp(tx.clock)
    const changes = {
      ...(input.label !== undefined && { label: input.label }),
      ...(input.description !== undefined && { description: input.description }),
      updated: now,
    }
    const next = await writeUnique(() => repo.updateVpc(db, row, changes), labelTaken)
    await recordEvents(db, [vpcEvent(actor, 'vpc_update', next, now)])
    return next
  })
  const [result] = await assemble(ctx.db, [vpc])
  return result as Vpc
}

/**
 * Deletes the VPC with all its subnets, or nothing when any subnet is still in use (API rule 2).
 */
export async function deleteVpc(ctx: RequestContext, ids: { vpcId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const { db, actor } = tx
    const vpc = await accessVpc(tx, ids, 'read_write', { lock: true })
    // Locking the subnets waits out any interface being attached to one of them right now.
    const subnets = await lockSubnetsOfVpc(db, vpc.id)
    if (subnets.length > 0) {
      const attached = await listAttachmentsOfVpcs(db, [vpc.id])
      if (attached.length > 0) throw await subnetInUse(db, subnets)
    }
    await repo.deleteVpc(db, vpc.id)
    await deleteEntityGrants(db, 'vpc', vpc.id)
    const now = nowTimestamp(tx.clock)
    await recordEvents(db, [
      ...subnets.map((s) => subnetEvent(actor, 'subnet_delete', vpc, s, now)),
      vpcEvent(actor, 'vpc_delete', vpc, now),
    ])
  })
}
