import { sql } from 'kysely'
import { badRequest, ErrorCollector, notFound } from '../../common/errors.ts'
import { pageJson } from '../../common/page-json.ts'
import type { PageRequest } from '../../common/pagination.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf, isUniqueViolation } from '../../db/dialects/dialect.ts'
import { stableSlot } from '../../db/prepared.ts'
import { inTransaction } from '../../db/transaction.ts'
import { lockAccount } from '../accounts/accounts.repository.ts'
import type { Actor } from '../auth/actor.ts'
import { type NewEvent, recordEvents } from '../events/events.repository.ts'
import { assertEntityGrant, assertGlobalGrant, grantedOnly, grantToCreator } from '../grants/authorize.ts'
import { deleteEntityGrants } from '../grants/grants.repository.ts'
import { findRegion } from '../regions/regions.repository.ts'
import { listAttachmentsOfVpcs } from './subnets/subnet-attachments.repository.ts'
import { insertSubnets, listSubnetsOfVpcs, lockSubnetsOfVpc } from './subnets/subnets.repository.ts'
import { checkNewSubnets, groupAttachments, subnetInUse, toSubnet } from './subnets/subnets.service.ts'
import type { SubnetRow } from './subnets/subnets.table.ts'
import { subnetEvent, vpcEvent } from './vpc-events.ts'
import { vpcsPerRegion } from './vpc-limits.repository.ts'
import * as repo from './vpcs.repository.ts'
import type { CreateVpcBody, UpdateVpcBody, Vpc } from './vpcs.schemas.ts'
import type { VpcRow } from './vpcs.table.ts'

/** Filterable VPC fields at 4.174.0 (api-facts 2.2). */
const VPC_FILTERS: FilterSpec = {
  id: { column: 'vpcs.id', type: 'integer' },
  label: { column: 'vpcs.label', type: 'string' },
  region: { column: 'vpcs.region', type: 'string' },
  created: { column: 'vpcs.created', type: 'timestamp' },
  updated: { column: 'vpcs.updated', type: 'timestamp', nullable: true },
}

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
 * The list page as JSON text (see vpc-json.ts). The SQL is prepared once per shape: restricted or
 * not, and the filter (compiled only when that shape is new).
 */
export async function listVpcsJson(
  db: Db,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<string> {
  const restricted = actor.user.restricted
  const compile = () => {
    const dialect = dialectOf(db)
    const compiled = compileFilter(filter, VPC_FILTERS, dialect)
    // The user's id is a slot, so one statement serves every restricted user.
    const user = stableSlot<number>(dialect, 'user') as unknown as number
    const granted = grantedOnly({ ...actor, user: { ...actor.user, id: user } }, 'vpc', 'vpcs.id')
    const where =
      compiled.where && granted
        ? sql<boolean>`(${compiled.where} and ${granted})`
        : (compiled.where ?? granted)
    const order = [
      ...(compiled.order ? [compiled.order] : []),
      { expression: sql.ref('vpcs.id'), direction: compiled.order?.direction ?? 'asc' } as const,
    ]
    return { where, order }
  }
  const key = `${restricted ? 'restricted' : 'all'}\u0000${filter ?? ''}`
  const values = { user: restricted ? actor.user.id : null }
  return pageJson(await repo.listAccountVpcJson(db, actor.accountId, page, key, values, compile))
}

/** A VPC as JSON text (see vpc-json.ts). */
export async function getVpcJson(db: Db, actor: Actor, id: number): Promise<string> {
  const json = await repo.findAccountVpcJson(db, actor.accountId, id)
  if (json === undefined) throw notFound()
  await assertEntityGrant(db, actor, 'vpc', id, 'read_only')
  return json
}

/** Creates the VPC and its subnets all-or-nothing (API rule 1), with their events. */
export async function createVpc(db: Db, clock: Clock, actor: Actor, input: CreateVpcBody): Promise<Vpc> {
  return inTransaction(db, async (trx) => {
    await assertGlobalGrant(trx, actor, 'add_vpcs')
    // Serializes VPC creation per account, so the per-region count below cannot be raced.
    await lockAccount(trx, actor.accountId)
    const errors = new ErrorCollector()
    if ((await repo.findVpcByLabel(trx, actor.accountId, input.label)) !== undefined) {
      errors.add('Label must be unique among your VPCs', 'label')
    }
    const region = await findRegion(trx, input.region)
    if (region === undefined) {
      errors.add('Region not found', 'region')
    } else if (!(JSON.parse(region.capabilities) as string[]).includes('VPCs')) {
      errors.add('Region does not support VPCs', 'region')
    } else {
      const limit = await vpcsPerRegion(trx, actor.accountId)
      if ((await repo.countVpcsInRegion(trx, actor.accountId, region.id)) >= limit) {
        errors.add(`You can have at most ${limit} VPCs in region ${region.id}`, 'region')
      }
    }
    const subnets = input.subnets ?? []
    checkNewSubnets(subnets, [], errors, (i, name) => `subnets[${i}].${name}`)
    errors.throwIfAny()

    const now = nowTimestamp(clock)
    let vpc: VpcRow
    try {
      vpc = await repo.insertVpc(trx, {
        account_id: actor.accountId,
        label: input.label,
        description: input.description ?? '',
        region: input.region,
        created: now,
        updated: now,
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken()
      throw error
    }
    const inserted = await insertSubnets(
      trx,
      subnets.map((s) => ({ vpc_id: vpc.id, label: s.label, ipv4: s.ipv4, created: now, updated: now })),
    )
    // RETURNING order is not promised; labels are unique within the VPC, so restore request order.
    const byLabel = new Map(inserted.map((s) => [s.label, s]))
    const created = subnets.map((s) => byLabel.get(s.label) as SubnetRow)
    await grantToCreator(trx, actor, 'vpc', vpc.id)
    await recordEvents(trx, [
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
  db: Db,
  clock: Clock,
  actor: Actor,
  id: number,
  input: UpdateVpcBody,
): Promise<Vpc> {
  const vpc = await inTransaction(db, async (trx) => {
    const row = await repo.findAccountVpc(trx, actor.accountId, id)
    if (row === undefined) throw notFound()
    await assertEntityGrant(trx, actor, 'vpc', row.id, 'read_write')
    if (input.label !== undefined && input.label !== row.label) {
      if ((await repo.findVpcByLabel(trx, actor.accountId, input.label)) !== undefined) throw labelTaken()
    }
    const now = nowTimestamp(clock)
    let next: VpcRow
    try {
      next = await repo.updateVpc(trx, row, {
        ...(input.label !== undefined && { label: input.label }),
        ...(input.description !== undefined && { description: input.description }),
        updated: now,
      })
    } catch (error) {
      if (isUniqueViolation(error)) throw labelTaken()
      throw error
    }
    await recordEvents(trx, [vpcEvent(actor, 'vpc_update', next, now)])
    return next
  })
  const [result] = await assemble(db, [vpc])
  return result as Vpc
}

/**
 * Deletes the VPC with all its subnets, or nothing when any subnet is still in use (API rule 2).
 */
export async function deleteVpc(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const vpc = await repo.lockAccountVpc(trx, actor.accountId, id)
    if (vpc === undefined) throw notFound()
    await assertEntityGrant(trx, actor, 'vpc', vpc.id, 'read_write')
    // Locking the subnets waits out any interface being attached to one of them right now.
    const subnets = await lockSubnetsOfVpc(trx, vpc.id)
    if (subnets.length > 0) {
      const attached = await listAttachmentsOfVpcs(trx, [vpc.id])
      if (attached.length > 0) throw await subnetInUse(trx, subnets)
    }
    await repo.deleteVpc(trx, vpc.id)
    await deleteEntityGrants(trx, 'vpc', vpc.id)
    const now = nowTimestamp(clock)
    const events: NewEvent[] = subnets.map((s) => subnetEvent(actor, 'subnet_delete', vpc, s, now))
    events.push(vpcEvent(actor, 'vpc_delete', vpc, now))
    await recordEvents(trx, events)
  })
}
