import { sql } from 'kysely'
import { formatCidr, storedRange } from '../../../common/cidr.ts'
import { badRequest, ErrorCollector, notFound } from '../../../common/errors.ts'
import type { PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf, isUniqueViolation } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { recordEvent } from '../../events/events.repository.ts'
import { assertEntityGrant } from '../../grants/authorize.ts'
import { subnetEvent } from '../vpc-events.ts'
import { findAccountVpc } from '../vpcs.repository.ts'
import type { VpcRow } from '../vpcs.table.ts'
import {
  listAttachmentsOfSubnets,
  listSubnetUsers,
  type SubnetAttachment,
} from './subnet-attachments.repository.ts'
import { checkSubnetRange, firstOverlap, type NamedRange } from './subnet-ranges.ts'
import * as repo from './subnets.repository.ts'
import type { CreateSubnetBody, Subnet, SubnetCompute, UpdateSubnetBody } from './subnets.schemas.ts'
import type { SubnetRow } from './subnets.table.ts'

/** At most 10 subnets per VPC (api-facts 4.1). */
export const MAX_SUBNETS_PER_VPC = 10

/** Filterable subnet fields at 4.174.0 (api-facts 2.2). */
const SUBNET_FILTERS: FilterSpec = {
  id: { column: 'subnets.id', type: 'integer' },
  label: { column: 'subnets.label', type: 'string' },
  created: { column: 'subnets.created', type: 'timestamp' },
  updated: { column: 'subnets.updated', type: 'timestamp', nullable: true },
}

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
    last.interfaces.push({ id: row.id, active: row.active === true || (row.active as unknown) === 1 })
  }
  return bySubnet
}

export function toSubnet(row: SubnetRow, linodes: SubnetCompute[] = []): Subnet {
  return {
    id: row.id,
    label: row.label,
    ipv4: row.ipv4,
    linodes,
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

/** The VPC of the actor's account, with the grant the operation needs. */
async function vpcFor(
  db: Db,
  actor: Actor,
  vpcId: number,
  needed: 'read_only' | 'read_write',
): Promise<VpcRow> {
  const vpc = await findAccountVpc(db, actor.accountId, vpcId)
  if (vpc === undefined) throw notFound()
  await assertEntityGrant(db, actor, 'vpc', vpc.id, needed)
  return vpc
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
  db: Db,
  actor: Actor,
  vpcId: number,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Subnet>> {
  const compiled = compileFilter(filter, SUBNET_FILTERS, dialectOf(db))
  const vpc = await vpcFor(db, actor, vpcId, 'read_only')
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    { expression: sql.ref('subnets.id'), direction: compiled.order?.direction ?? 'asc' } as const,
  ]
  const rows = await repo.pageVpcSubnets(db, vpc.id, page, compiled.where, order)
  return { ...rows, data: await withLinodes(db, rows.data) }
}

export async function getSubnet(db: Db, actor: Actor, vpcId: number, subnetId: number): Promise<Subnet> {
  const vpc = await vpcFor(db, actor, vpcId, 'read_only')
  const row = await repo.findVpcSubnet(db, vpc.id, subnetId)
  if (row === undefined) throw notFound()
  const [subnet] = await withLinodes(db, [row])
  return subnet as Subnet
}

export async function createSubnet(
  db: Db,
  clock: Clock,
  actor: Actor,
  vpcId: number,
  input: CreateSubnetBody,
): Promise<Subnet> {
  return inTransaction(db, async (trx) => {
    // The VPC's lock serializes subnet creates: the count and overlap checks then hold.
    const found = await repo.lockVpcWithRanges(trx, actor.accountId, vpcId)
    if (found === undefined) throw notFound()
    const { vpc, subnets: existing } = found
    await assertEntityGrant(trx, actor, 'vpc', vpc.id, 'read_write')
    if (existing.length >= MAX_SUBNETS_PER_VPC) {
      throw badRequest(`A VPC can have at most ${MAX_SUBNETS_PER_VPC} subnets`)
    }
    const errors = new ErrorCollector()
    checkNewSubnets([input], existing, errors, (_, name) => name)
    errors.throwIfAny()
    const now = nowTimestamp(clock)
    let row: SubnetRow
    try {
      row = await repo.insertSubnet(trx, {
        vpc_id: vpc.id,
        label: input.label,
        ipv4: input.ipv4,
        created: now,
        updated: now,
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw subnetLabelTaken()
      throw error
    }
    await recordEvent(trx, subnetEvent(actor, 'subnet_create', vpc, row, now))
    return toSubnet(row)
  })
}

export async function updateSubnet(
  db: Db,
  clock: Clock,
  actor: Actor,
  vpcId: number,
  subnetId: number,
  input: UpdateSubnetBody,
): Promise<Subnet> {
  const updated = await inTransaction(db, async (trx) => {
    const vpc = await vpcFor(trx, actor, vpcId, 'read_write')
    const row = await repo.findVpcSubnet(trx, vpc.id, subnetId)
    if (row === undefined) throw notFound()
    const now = nowTimestamp(clock)
    let next: SubnetRow
    try {
      next = await repo.updateSubnet(trx, row, {
        ...(input.label !== undefined && { label: input.label }),
        updated: now,
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw subnetLabelTaken()
      throw error
    }
    await recordEvent(trx, subnetEvent(actor, 'subnet_update', vpc, next, now))
    return next
  })
  const [subnet] = await withLinodes(db, [updated])
  return subnet as Subnet
}

/** Refused while any config interface uses the subnet (API rule 3). */
export async function deleteSubnet(
  db: Db,
  clock: Clock,
  actor: Actor,
  vpcId: number,
  subnetId: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const found = await repo.lockSubnetOfAccountVpc(trx, actor.accountId, vpcId, subnetId)
    if (found === undefined) {
      // Without the grant, a restricted user is refused before learning whether the subnet exists.
      await vpcFor(trx, actor, vpcId, 'read_write')
      throw notFound()
    }
    const { vpc, subnet } = found
    await assertEntityGrant(trx, actor, 'vpc', vpc.id, 'read_write')
    if (!(await repo.deleteSubnetIfUnused(trx, subnet.id))) throw await subnetInUse(trx, [subnet])
    await recordEvent(trx, subnetEvent(actor, 'subnet_delete', vpc, subnet, nowTimestamp(clock)))
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
