import { formatCidr, storedRange } from '../../../common/cidr.ts'
import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest, ErrorCollector, foundOrNotFound, notFound } from '../../../common/errors.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { recordEvent } from '../../events/events.service.ts'
import { assertEntityGrant } from '../../grants/authorize.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { writeUnique } from '../unique-write.ts'
import { accessVpc, grantedVpc } from '../vpc-access.ts'
import { subnetEvent } from '../vpc-events.ts'
import type { VpcRow } from '../vpcs.table.ts'
import {
  listAttachmentsOfSubnets,
  listSubnetUsers,
  type SubnetAttachment,
} from './subnet-attachments.repository.ts'
import { deleteSubnetWithEvent, insertSubnetWithEvent } from './subnet-event-writes.ts'
import { checkSubnetRange, firstOverlap, type NamedRange } from './subnet-ranges.ts'
import * as repo from './subnets.repository.ts'
import type { CreateSubnetBody, Subnet, SubnetCompute, UpdateSubnetBody } from './subnets.schemas.ts'
import type { SubnetRow } from './subnets.table.ts'

/** At most 10 subnets per VPC (docs/service-facts.md#vpc-limits). */
export const MAX_SUBNETS_PER_VPC = 10

const LABEL_TAKEN = 'Label must be unique among the subnets of this VPC'
const subnetLabelTaken = () => badRequest(LABEL_TAKEN, 'label')

/** Groups interface rows (ordered by subnet, instance, id) into each subnet's `linodes` list. */
export function groupAttachments(rows: readonly SubnetAttachment[]): Map<number, SubnetCompute[]> {
  const bySubnet = new Map<number, SubnetCompute[]>()
  for (const row of rows) {
    let instances = bySubnet.get(row.subnet_id)
    if (instances === undefined) {
      instances = []
      bySubnet.set(row.subnet_id, instances)
    }
    let last = instances.at(-1)
    if (last === undefined || last.id !== row.instance_id) {
      last = { id: row.instance_id, interfaces: [] }
      instances.push(last)
    }
    // SQLite may hand back 1/0 where a column is not declared boolean (derived results).
    last.interfaces.push({
      id: row.id,
      active: row.active === true || (row.active as unknown) === 1,
      config_id: row.config_id,
    })
  }
  return bySubnet
}

export function toSubnet(row: SubnetRow, linodes: SubnetCompute[] = []): Subnet {
  return {
    id: row.id,
    label: row.label,
    ipv4: row.ipv4,
    linodes,
    nodebalancers: [],
    created: row.created,
    updated: row.updated,
  }
}

/**
 * Checks the subnets of one create request against the rules, the existing subnets of the VPC and
 * each other; `field(i, name)` names the offending input (`ipv4`, or `subnets[1].ipv4`).
 */
export function checkNewSubnets(
  inputs: readonly CreateSubnetBody[],
  existing: readonly repo.SubnetRange[],
  errors: ErrorCollector,
  field: (index: number, name: 'label' | 'ipv4') => string,
): void {
  const siblings: NamedRange[] = existing.map((s) => ({ label: s.label, range: storedRange(s.ipv4) }))
  const labels = new Set(existing.map((s) => s.label))
  inputs.forEach((input, i) => {
    if (labels.has(input.label)) errors.add(LABEL_TAKEN, field(i, 'label'))
    labels.add(input.label)
    const checked = checkSubnetRange(input.ipv4)
    if (checked.problem !== undefined) {
      errors.add(checked.problem, field(i, 'ipv4'))
      return
    }
    const clash = firstOverlap(checked.range, siblings)
    if (clash !== undefined) {
      errors.add(`Overlaps subnet ${clash.label} (${formatCidr(clash.range)}) of this VPC`, field(i, 'ipv4'))
      return
    }
    siblings.push({ label: input.label, range: checked.range })
  })
}

/** The ids that name a subnet: its VPC's and its own. */
export interface SubnetIds {
  vpcId: number
  subnetId: number
}

/**
 * A subnet of a VPC the caller reaches (see `accessVpc`: 404 for another account's VPC, else the
 * grant `permission` on it), or 404 when the VPC has no such subnet.
 */
export async function accessSubnet(
  ctx: RequestContext,
  { vpcId, subnetId }: SubnetIds,
  permission: Permission,
): Promise<{ vpc: VpcRow; subnet: SubnetRow }> {
  const vpc = await accessVpc(ctx, { vpcId }, permission)
  return { vpc, subnet: foundOrNotFound(await repo.findVpcSubnet(ctx.db, vpc.id, subnetId)) }
}

/** A subnet of the caller's account, with its VPC's region and label, for an interface to use. */
export type AttachableSubnet = repo.AccountSubnet

/**
 * The subnet an interface names by id alone (with its VPC's region and label), locked until the
 * transaction ends so that it cannot be deleted while the interface joins it. Undefined when the
 * caller's account has no such subnet (the caller reports that on its own field); 403 when a
 * restricted caller lacks `permission` on its VPC.
 */
export async function lockSubnetForInterface(
  ctx: RequestContext,
  { subnetId }: { subnetId: number },
  permission: Permission,
): Promise<AttachableSubnet | undefined> {
  const subnet = await repo.lockAccountSubnet(ctx.db, ctx.actor.accountId, subnetId)
  if (subnet !== undefined) await assertEntityGrant(ctx.db, ctx.actor, 'vpc', subnet.vpc_id, permission)
  return subnet
}

async function withLinodes(db: Db, rows: SubnetRow[]): Promise<Subnet[]> {
  const attachments = groupAttachments(
    await listAttachmentsOfSubnets(
      db,
      rows.map((r) => r.id),
    ),
  )
  return rows.map((row) => toSubnet(row, attachments.get(row.id)))
}

export async function listSubnets(
  ctx: RequestContext,
  { vpcId }: { vpcId: number },
  query: ListQuery,
): Promise<PageResult<Subnet>> {
  // A bad filter is refused before the VPC is looked up.
  repo.checkSubnetFilter(ctx.db, query.filter)
  const vpc = await accessVpc(ctx, { vpcId }, 'read_only')
  const rows = await repo.pageVpcSubnets(ctx.db, vpc.id, query.filter, query.page)
  return { ...rows, data: await withLinodes(ctx.db, rows.data) }
}

export async function getSubnet(ctx: RequestContext, ids: SubnetIds): Promise<Subnet> {
  const { subnet: row } = await accessSubnet(ctx, ids, 'read_only')
  const [subnet] = await withLinodes(ctx.db, [row])
  return subnet as Subnet
}

export async function createSubnet(
  ctx: RequestContext,
  ids: { vpcId: number },
  input: CreateSubnetBody,
): Promise<Subnet> {
  return inContextTransaction(ctx, async (tx) => {
    // The VPC's lock serializes subnet creates: the count and overlap checks then hold.
    const found = await repo.lockVpcWithRanges(tx.db, tx.actor.accountId, ids.vpcId)
    const { vpc, subnets: existing, subnetId } = await grantedVpc(tx, ids, found, 'read_write')
    if (existing.length >= MAX_SUBNETS_PER_VPC) {
      throw badRequest(`A VPC can have at most ${MAX_SUBNETS_PER_VPC} subnets`)
    }
    const errors = new ErrorCollector()
    checkNewSubnets([input], existing, errors, (_, name) => name)
    errors.throwIfAny()
    const now = nowTimestamp(tx.clock)
    const fields = { vpc_id: vpc.id, label: input.label, ipv4: input.ipv4, created: now, updated: now }
    if (subnetId !== undefined) {
      // PostgreSQL: the subnet and its event in one statement (subnet-event-writes.ts).
      const event = subnetEvent(tx.actor, 'subnet_create', vpc, { id: subnetId, label: input.label }, now)
      const insert = () => insertSubnetWithEvent(tx.db, { id: subnetId, ...fields }, event)
      return toSubnet(await writeUnique(insert, subnetLabelTaken))
    }
    const row = await writeUnique(() => repo.insertSubnet(tx.db, fields), subnetLabelTaken)
    await recordEvent(tx.db, subnetEvent(tx.actor, 'subnet_create', vpc, row, now))
    return toSubnet(row)
  })
}

export async function updateSubnet(
  ctx: RequestContext,
  ids: SubnetIds,
  input: UpdateSubnetBody,
): Promise<Subnet> {
  const updated = await inContextTransaction(ctx, async (tx) => {
    const { vpc, subnet: row } = await accessSubnet(tx, ids, 'read_write')
    const now = nowTimestamp(tx.clock)
    const changes = { ...(input.label !== undefined && { label: input.label }), updated: now }
    const next = await writeUnique(() => repo.updateSubnet(tx.db, row, changes), subnetLabelTaken)
    await recordEvent(tx.db, subnetEvent(tx.actor, 'subnet_update', vpc, next, now))
    return next
  })
  const [subnet] = await withLinodes(ctx.db, [updated])
  return subnet as Subnet
}

/** Refused while any config interface uses the subnet (API rule 3). */
export async function deleteSubnet(ctx: RequestContext, ids: SubnetIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const found = await repo.lockSubnetOfAccountVpc(tx.db, tx.actor.accountId, ids.vpcId, ids.subnetId)
    if (found === undefined) {
      // Without the grant, a restricted user is refused before learning whether the subnet exists.
      await accessVpc(tx, ids, 'read_write')
      throw notFound()
    }
    const { vpc, subnet } = await grantedVpc(tx, ids, found, 'read_write')
    const event = subnetEvent(tx.actor, 'subnet_delete', vpc, subnet, nowTimestamp(tx.clock))
    if (dialectOf(tx.db) === 'postgres') {
      // The delete and its event in one statement (subnet-event-writes.ts); a refusal rolls back.
      if (!(await deleteSubnetWithEvent(tx.db, subnet.id, event))) throw await subnetInUse(tx.db, [subnet])
      return
    }
    if (!(await repo.deleteSubnetIfUnused(tx.db, subnet.id))) throw await subnetInUse(tx.db, [subnet])
    await recordEvent(tx.db, event)
  })
}

/**
 * The refusal for subnets still assigned to interfaces, naming the first one and its instances
 * (and saying when they must be shut down first).
 */
export async function subnetInUse(db: Db, subnets: readonly SubnetRow[]) {
  const users = await listSubnetUsers(
    db,
    subnets.map((s) => s.id),
  )
  const first = users[0]
  const subnet = subnets.find((s) => s.id === first?.subnet_id) ?? subnets[0]
  const ofSubnet = users.filter((u) => u.subnet_id === subnet?.id)
  const instances = [...new Set(ofSubnet.map((u) => u.instance_id))]
  const running = ofSubnet.some((u) => u.active === true || (u.active as unknown) === 1)
  const what = `Subnet ${subnet?.label} (${subnet?.id}) is assigned to config interfaces of Compute ${instances.join(', ')}`
  return badRequest(
    running
      ? `${what}; shut down the Compute and delete those interfaces first`
      : `${what}; delete those interfaces first`,
  )
}
