import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { badRequest, ErrorCollector, notFound } from '../../../common/errors.ts'
import { nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { buildEvent } from '../../events/event-builder.ts'
import { recordEvent } from '../../events/events.service.ts'
import type { Permission } from '../../grants/grant-types.ts'
import { lockSubnetForInterface } from '../../vpcs/vpcs.service.ts'
import { onConfig } from '../compute-events.ts'
import { accessConfig, type ConfigIds, type InstanceConfig } from '../configs/config-access.ts'
import { updateConfig } from '../configs/configs.repository.ts'
import type { ConfigRow } from '../configs/configs.table.ts'
import type { InstanceRow } from '../instances/instances.table.ts'
import type { FieldOf, InterfaceListPlan, InterfacePlan, PlannedSubnet } from './interface-planner.ts'
import * as planner from './interface-planner.ts'
import { holdingsOf, ownRangeHolding } from './interface-rules.ts'
import * as repo from './interfaces.repository.ts'
import type {
  Interface,
  InterfaceInput,
  OrderInterfacesBody,
  UpdateInterfaceBody,
} from './interfaces.schemas.ts'
import type { InterfaceRangeRow, InterfaceRow } from './interfaces.table.ts'

export interface InterfaceIds extends ConfigIds {
  interfaceId: number
}

export function toInterface(row: InterfaceRow, ranges: readonly string[]): Interface {
  const vpc = row.purpose === 'vpc'
  return {
    id: row.id,
    purpose: row.purpose as Interface['purpose'],
    primary: row.is_primary,
    active: row.active,
    ipam_address: row.purpose === 'vlan' ? (row.ipam_address ?? '') : null,
    label: row.purpose === 'vlan' ? row.label : null,
    vpc_id: row.vpc_id,
    subnet_id: row.subnet_id,
    ipv4: vpc ? { vpc: row.ipv4_vpc, nat_1_1: row.nat_1_1 } : null,
    ip_ranges: vpc ? [...ranges] : null,
  }
}

/** Interfaces of several profiles with their ranges, in two queries, grouped by profile. */
export async function interfacesOfConfigs(
  db: Db,
  configIds: readonly number[],
): Promise<Map<number, Interface[]>> {
  const rows = await repo.listInterfacesOfConfigs(db, configIds)
  const ranges = groupRanges(
    await repo.listRangesOfInterfaces(
      db,
      rows.filter((r) => r.purpose === 'vpc').map((r) => r.id),
    ),
  )
  const byConfig = new Map<number, Interface[]>()
  for (const row of rows) {
    const list = byConfig.get(row.config_id) ?? []
    list.push(toInterface(row, ranges.get(row.id) ?? []))
    byConfig.set(row.config_id, list)
  }
  return byConfig
}

function groupRanges(rows: readonly InterfaceRangeRow[]): Map<number, string[]> {
  const map = new Map<number, string[]>()
  for (const row of rows) {
    const list = map.get(row.interface_id) ?? []
    list.push(row.range)
    map.set(row.interface_id, list)
  }
  return map
}

/**
 * Validates one requested interface and works out its stored form (locking the subnet of a vpc
 * interface, so its addresses cannot be taken meanwhile). Problems go to `errors` under
 * `field(name)`.
 */
async function planInterface(
  ctx: RequestContext,
  instance: InstanceRow,
  input: InterfaceInput,
  keep: InterfaceRow | null,
  field: FieldOf,
  errors: ErrorCollector,
): Promise<InterfacePlan | undefined> {
  const before = errors.errors.length
  const plan = planner.startPlan(input, keep, field, errors)
  if (input.purpose === 'vpc') {
    const subnet = await subnetFor(ctx, instance, input, field, errors)
    if (subnet === undefined) return undefined
    const holdings = holdingsOf(await repo.listSubnetHoldings(ctx.db, subnet.id, instance.id))
    planner.planVpcFields(plan, input, subnet, holdings, instance.ipv4, field, errors)
    // Ranges kept as they are must still leave out a new address sent without them.
    const address = keep !== null && plan.ranges === null ? plan.ipv4_vpc : null
    if (keep !== null && address !== null && address !== keep.ipv4_vpc) {
      const kept = (await repo.listRangesOfInterfaces(ctx.db, [keep.id])).map((r) => r.range)
      const holding = ownRangeHolding(address, kept)
      if (holding !== undefined)
        errors.add(`Must not be within this interface's routed range ${holding}`, field('ipv4.vpc'))
    }
  }
  return errors.errors.length === before ? plan : undefined
}

/**
 * The subnet a vpc interface joins, locked, in the instance's region, of a VPC the caller may
 * change: joining takes one of its addresses (docs/decisions.md#subnet-attachment).
 */
async function subnetFor(
  ctx: RequestContext,
  instance: InstanceRow,
  input: InterfaceInput,
  field: FieldOf,
  errors: ErrorCollector,
): Promise<PlannedSubnet | undefined> {
  const subnetId = planner.requestedSubnet(input, field, errors)
  if (subnetId === undefined) return undefined
  const subnet = await lockSubnetForInterface(ctx, { subnetId }, 'read_write')
  if (subnet === undefined) {
    errors.add('Subnet not found', field('subnet_id'))
    return undefined
  }
  return planner.subnetInRegion(subnet, instance.region, field, errors) ? subnet : undefined
}

/**
 * Plans a profile's whole interface list (config create and update, instance create). Existing
 * interfaces that the list continues keep their ids, addresses and state; the others are removed,
 * which an active interface cannot be.
 */
export async function planInterfaceList(
  ctx: RequestContext,
  instance: InstanceRow,
  existing: readonly InterfaceRow[],
  inputs: readonly InterfaceInput[],
  listField: string,
  errors: ErrorCollector,
): Promise<InterfaceListPlan> {
  planner.checkInterfaceList(inputs, listField, errors)
  const { keeps, removed } = planner.matchExisting(existing, inputs)
  const plans: InterfacePlan[] = []
  for (const [i, input] of inputs.entries()) {
    const field: FieldOf = (name) => `${listField}[${i}].${name}`
    const plan = await planInterface(ctx, instance, input, keeps[i] ?? null, field, errors)
    if (plan) plans.push(plan)
  }
  planner.checkRemovals(removed, listField, errors)
  return { plans, removed }
}

/** Writes a planned list: removes, updates and inserts, keeping eth order. */
export async function applyInterfaceList(
  db: Db,
  instance: InstanceRow,
  config: ConfigRow,
  list: InterfaceListPlan,
) {
  await repo.deleteInterfaces(
    db,
    list.removed.map((r) => r.id),
  )
  for (const [position, plan] of list.plans.entries()) {
    const values = planner.plannedColumns(plan, position)
    const row = plan.keep
      ? await repo.updateInterface(db, plan.keep.id, values)
      : await repo.insertInterface(db, {
          ...values,
          config_id: config.id,
          instance_id: instance.id,
          active: false,
        })
    if (plan.ranges !== null) await repo.replaceRanges(db, row.id, plan.ranges)
  }
}

/** The interface of a profile reached through `accessConfig` (404 otherwise). */
async function accessInterface(
  ctx: RequestContext,
  { interfaceId, ...configIds }: InterfaceIds,
  permission: Permission,
): Promise<InstanceConfig & { row: InterfaceRow }> {
  const { instance, config } = await accessConfig(ctx, configIds, permission)
  const row = (await repo.listConfigInterfaces(ctx.db, config.id)).find((r) => r.id === interfaceId)
  if (row === undefined) throw notFound()
  return { instance, config, row }
}

async function render(db: Db, row: InterfaceRow): Promise<Interface> {
  const ranges = await repo.listRangesOfInterfaces(db, [row.id])
  return toInterface(
    row,
    ranges.map((r) => r.range),
  )
}

/** A bare array, not a page (docs/service-facts.md#pagination). */
export async function listInterfaces(ctx: RequestContext, ids: ConfigIds): Promise<Interface[]> {
  const { config } = await accessConfig(ctx, ids, 'read_only')
  return (await interfacesOfConfigs(ctx.db, [config.id])).get(config.id) ?? []
}

export async function getInterface(ctx: RequestContext, ids: InterfaceIds): Promise<Interface> {
  return render(ctx.db, (await accessInterface(ctx, ids, 'read_only')).row)
}

/** Appends an interface to a profile; it becomes active at the profile's next boot. */
export async function addInterface(
  ctx: RequestContext,
  ids: ConfigIds,
  input: InterfaceInput,
): Promise<Interface> {
  return inContextTransaction(ctx, async (tx) => {
    const { instance, config } = await accessConfig(tx, ids, 'read_write')
    const existing = await repo.listConfigInterfaces(tx.db, config.id)
    if (existing.length >= planner.MAX_INTERFACES) {
      throw badRequest(`A config profile can have at most ${planner.MAX_INTERFACES} interfaces`)
    }
    const errors = new ErrorCollector()
    const sameKind = existing.filter((e) => e.purpose === input.purpose && input.purpose !== 'vlan')
    if (sameKind.length > 0) {
      errors.add(`Only one ${input.purpose} interface is allowed per config profile`, 'purpose')
    }
    const planned = await planInterface(tx, instance, input, null, (name) => name, errors)
    errors.throwIfAny()
    const plan = planned as InterfacePlan
    if (plan.is_primary) await repo.clearPrimary(tx.db, config.id, null)
    const row = await repo.insertInterface(tx.db, {
      ...planner.plannedColumns(plan, existing.length),
      config_id: config.id,
      instance_id: instance.id,
      active: false,
    })
    if (plan.ranges !== null && plan.ranges.length > 0) await repo.replaceRanges(tx.db, row.id, plan.ranges)
    await recordConfigUpdate(tx, { instance, config })
    return toInterface(row, plan.ranges ?? [])
  })
}

/**
 * Only primary, ipv4 and ip_ranges change; vlan interfaces cannot be updated
 * (docs/service-facts.md#config-interfaces).
 */
export async function updateInterface(
  ctx: RequestContext,
  ids: InterfaceIds,
  input: UpdateInterfaceBody,
): Promise<Interface> {
  return inContextTransaction(ctx, async (tx) => {
    const { instance, config, row } = await accessInterface(tx, ids, 'read_write')
    if (row.purpose === 'vlan') throw badRequest('VLAN interfaces cannot be updated')
    const errors = new ErrorCollector()
    const currentRanges = (await repo.listRangesOfInterfaces(tx.db, [row.id])).map((r) => r.range)
    const planned = await planInterface(
      tx,
      instance,
      {
        purpose: row.purpose as InterfaceInput['purpose'],
        subnet_id: row.subnet_id,
        primary: input.primary ?? row.is_primary,
        ...(input.ipv4 !== undefined && { ipv4: input.ipv4 }),
        ...(input.ip_ranges !== undefined && { ip_ranges: input.ip_ranges }),
      },
      row,
      (name) => name,
      errors,
    )
    errors.throwIfAny()
    const plan = planned as InterfacePlan
    if (plan.is_primary && !row.is_primary) await repo.clearPrimary(tx.db, config.id, row.id)
    const next = await repo.updateInterface(tx.db, row.id, {
      is_primary: plan.is_primary,
      ipv4_vpc: plan.ipv4_vpc,
      nat_1_1: plan.nat_1_1,
    })
    if (plan.ranges !== null) await repo.replaceRanges(tx.db, row.id, plan.ranges)
    await recordConfigUpdate(tx, { instance, config })
    return toInterface(next, plan.ranges ?? currentRanges)
  })
}

/** An active interface cannot be deleted: the instance must be off or running another profile. */
export async function deleteInterface(ctx: RequestContext, ids: InterfaceIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const { instance, config, row } = await accessInterface(tx, ids, 'read_write')
    if (row.active) {
      throw badRequest(
        'An active interface cannot be deleted; shut the Compute down or boot it from another config profile first',
      )
    }
    await repo.deleteInterfaces(tx.db, [row.id])
    await repo.closePositionGap(tx.db, config.id, row.position)
    await recordConfigUpdate(tx, { instance, config })
  })
}

/**
 * Puts a profile's interfaces in the order given, eth0 first; `ids` names each of them once. Like
 * any change to a profile, it applies from the profile's next boot.
 */
export async function orderInterfaces(
  ctx: RequestContext,
  ids: ConfigIds,
  input: OrderInterfacesBody,
): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const { instance, config } = await accessConfig(tx, ids, 'read_write')
    const existing = new Set((await repo.listConfigInterfaces(tx.db, config.id)).map((row) => row.id))
    const wanted = new Set(input.ids)
    if (
      wanted.size !== input.ids.length ||
      wanted.size !== existing.size ||
      !input.ids.every((id) => existing.has(id))
    ) {
      throw badRequest("Must list each of the config profile's interfaces exactly once", 'ids')
    }
    await repo.setPositions(tx.db, input.ids)
    await recordConfigUpdate(tx, { instance, config })
  })
}

/**
 * Interface changes are config changes (docs/service-facts.md#config-interfaces): the profile is
 * updated and says so.
 */
async function recordConfigUpdate(ctx: RequestContext, { instance, config }: InstanceConfig) {
  const now = nowTimestamp(ctx.clock)
  await updateConfig(ctx.db, config.id, { updated: now })
  await recordEvent(ctx.db, buildEvent(ctx.actor, 'compute_config_update', onConfig(instance, config), now))
}
