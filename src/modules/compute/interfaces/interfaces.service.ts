import { storedRange } from '../../../common/cidr.ts'
import { badRequest, ErrorCollector, notFound } from '../../../common/errors.ts'
import { type Clock, nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { recordEvent } from '../../events/events.repository.ts'
import { assertEntityGrant } from '../../grants/authorize.ts'
import { lockAccountSubnet } from '../../vpcs/subnets/subnets.repository.ts'
import { computeEvent, configEntity } from '../compute-events.ts'
import { findInstanceConfig, updateConfig } from '../configs/configs.repository.ts'
import type { ConfigRow } from '../configs/configs.table.ts'
import { instanceFor } from '../instances/instance-access.ts'
import type { InstanceRow } from '../instances/instances.table.ts'
import {
  holdingsOf,
  isIpamAddress,
  planNat,
  planRanges,
  planVpcAddress,
  VLAN_LABEL,
} from './interface-rules.ts'
import * as repo from './interfaces.repository.ts'
import type { Interface, InterfaceInput, UpdateInterfaceBody } from './interfaces.schemas.ts'
import type { InterfaceRangeRow, InterfaceRow } from './interfaces.table.ts'

/** At most three interfaces (eth0..eth2) per profile (api-facts 4.3). */
export const MAX_INTERFACES = 3

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

/** What one interface will be after a write; `keep` is the existing interface it continues. */
export interface InterfacePlan {
  keep: InterfaceRow | null
  purpose: string
  label: string | null
  ipam_address: string | null
  is_primary: boolean
  vpc_id: number | null
  subnet_id: number | null
  ipv4_vpc: string | null
  nat_1_1: string | null
  /** Routed ranges of a vpc interface; null keeps the current ones. */
  ranges: string[] | null
}

const present = (value: unknown): boolean =>
  value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)

const hasIpv4Values = (ipv4: InterfaceInput['ipv4']): boolean =>
  ipv4 !== undefined && ipv4 !== null && (present(ipv4.vpc) || present(ipv4.nat_1_1))

/** Checks of a whole interface list: one public, one vpc, one primary at most. */
export function checkInterfaceList(
  inputs: ReadonlyArray<Pick<InterfaceInput, 'purpose' | 'primary'>>,
  field: string,
  errors: ErrorCollector,
): void {
  const count = (purpose: string) => inputs.filter((i) => i.purpose === purpose).length
  if (count('public') > 1) errors.add('Only one public interface is allowed per config profile', field)
  if (count('vpc') > 1) errors.add('Only one vpc interface is allowed per config profile', field)
  if (inputs.filter((i) => i.primary === true).length > 1)
    errors.add('Only one interface can be primary', field)
}

/**
 * Validates one requested interface and works out its stored form (locking the subnet of a vpc
 * interface, so its addresses cannot be taken meanwhile). Problems go to `errors` under
 * `field(name)`.
 */
export async function planInterface(
  db: Db,
  actor: Actor,
  instance: InstanceRow,
  input: InterfaceInput,
  keep: InterfaceRow | null,
  field: (name: string) => string,
  errors: ErrorCollector,
): Promise<InterfacePlan | undefined> {
  const before = errors.errors.length
  const plan: InterfacePlan = {
    keep,
    purpose: input.purpose,
    label: null,
    ipam_address: null,
    is_primary: input.primary === true,
    vpc_id: null,
    subnet_id: null,
    ipv4_vpc: null,
    nat_1_1: null,
    ranges: null,
  }
  if (input.purpose !== 'vpc') {
    if (present(input.subnet_id)) errors.add('Only vpc interfaces take a subnet_id', field('subnet_id'))
    if (hasIpv4Values(input.ipv4)) errors.add('Only vpc interfaces take ipv4 addresses', field('ipv4'))
    if (present(input.ip_ranges)) errors.add('Only vpc interfaces take ip_ranges', field('ip_ranges'))
  }
  if (input.purpose !== 'vlan') {
    if (present(input.label))
      errors.add(`Must be empty or null for ${input.purpose} interfaces`, field('label'))
    if (present(input.ipam_address)) {
      errors.add(`Must be empty or null for ${input.purpose} interfaces`, field('ipam_address'))
    }
  }
  if (input.purpose === 'vlan') {
    if (!present(input.label)) errors.add('A vlan interface needs a label', field('label'))
    else if (!VLAN_LABEL.test(input.label as string)) {
      errors.add('Label must include only ASCII letters, numbers, and dashes', field('label'))
    }
    if (present(input.ipam_address) && !isIpamAddress(input.ipam_address as string)) {
      errors.add('Must be an IPv4 address with its prefix, e.g. 10.0.0.1/24', field('ipam_address'))
    }
    if (input.primary === true) errors.add('A vlan interface cannot be primary', field('primary'))
    plan.label = input.label ?? null
    plan.ipam_address = present(input.ipam_address) ? (input.ipam_address as string) : null
  }
  if (input.purpose === 'vpc') {
    if (!present(input.subnet_id)) {
      errors.add('subnet_id is required for vpc interfaces', field('subnet_id'))
      return undefined
    }
    const subnet = await lockAccountSubnet(db, actor.accountId, input.subnet_id as number)
    if (subnet === undefined) {
      errors.add('Subnet not found', field('subnet_id'))
      return undefined
    }
    await assertEntityGrant(db, actor, 'vpc', subnet.vpc_id, 'read_only')
    if (subnet.region !== instance.region) {
      errors.add(
        `The subnet's VPC is in ${subnet.region}; this Compute is in ${instance.region}`,
        field('subnet_id'),
      )
      return undefined
    }
    const range = storedRange(subnet.ipv4)
    const holdings = holdingsOf(await repo.listSubnetHoldings(db, subnet.id, instance.id))
    const address = planVpcAddress(
      range,
      holdings,
      input.ipv4?.vpc,
      keep?.ipv4_vpc ?? null,
      field('ipv4.vpc'),
      errors,
    )
    plan.vpc_id = subnet.vpc_id
    plan.subnet_id = subnet.id
    plan.ipv4_vpc = address ?? null
    plan.nat_1_1 =
      keep !== null && input.ipv4 === undefined
        ? keep.nat_1_1
        : planNat(input.ipv4?.nat_1_1, instance.ipv4, field('ipv4.nat_1_1'), errors)
    if (input.ip_ranges !== undefined && input.ip_ranges !== null) {
      plan.ranges = planRanges(
        range,
        holdings,
        address,
        input.ip_ranges,
        (j) => field(`ip_ranges[${j}]`),
        errors,
      )
    } else if (keep === null || input.ip_ranges === null) {
      plan.ranges = []
    }
  }
  return errors.errors.length === before ? plan : undefined
}

/** An existing interface continues a requested one at the same slot with the same identity. */
function continues(existing: InterfaceRow | undefined, input: InterfaceInput): existing is InterfaceRow {
  if (existing === undefined || existing.purpose !== input.purpose) return false
  if (input.purpose === 'vpc') return existing.subnet_id === input.subnet_id
  if (input.purpose === 'vlan') return existing.label === input.label
  return true
}

export interface InterfaceListPlan {
  plans: InterfacePlan[]
  removed: InterfaceRow[]
}

/**
 * Plans a profile's whole interface list (config create and update, instance create). Existing
 * interfaces that the list continues keep their ids, addresses and state; the others are removed,
 * which an active interface cannot be.
 */
export async function planInterfaceList(
  db: Db,
  actor: Actor,
  instance: InstanceRow,
  existing: readonly InterfaceRow[],
  inputs: readonly InterfaceInput[],
  listField: string,
  errors: ErrorCollector,
): Promise<InterfaceListPlan> {
  checkInterfaceList(inputs, listField, errors)
  const plans: InterfacePlan[] = []
  const kept = new Set<number>()
  for (const [i, input] of inputs.entries()) {
    const candidate = existing[i]
    const keep = continues(candidate, input) ? candidate : null
    if (keep) kept.add(keep.id)
    const plan = await planInterface(
      db,
      actor,
      instance,
      input,
      keep,
      (name) => `${listField}[${i}].${name}`,
      errors,
    )
    if (plan) plans.push(plan)
  }
  const removed = existing.filter((e) => !kept.has(e.id))
  if (removed.some((r) => r.active)) {
    errors.add('An active interface cannot be removed; shut the Compute down first', listField)
  }
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
    const values = {
      position,
      purpose: plan.purpose,
      label: plan.label,
      ipam_address: plan.ipam_address,
      is_primary: plan.is_primary,
      vpc_id: plan.vpc_id,
      subnet_id: plan.subnet_id,
      ipv4_vpc: plan.ipv4_vpc,
      nat_1_1: plan.nat_1_1,
    }
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

async function configOf(db: Db, instance: InstanceRow, configId: number): Promise<ConfigRow> {
  const config = await findInstanceConfig(db, instance.id, configId)
  if (config === undefined) throw notFound()
  return config
}

async function interfaceOf(db: Db, config: ConfigRow, interfaceId: number): Promise<InterfaceRow> {
  const row = (await repo.listConfigInterfaces(db, config.id)).find((r) => r.id === interfaceId)
  if (row === undefined) throw notFound()
  return row
}

async function render(db: Db, row: InterfaceRow): Promise<Interface> {
  const ranges = await repo.listRangesOfInterfaces(db, [row.id])
  return toInterface(
    row,
    ranges.map((r) => r.range),
  )
}

/** A bare array, not a page (api-facts 1). */
export async function listInterfaces(
  db: Db,
  actor: Actor,
  instanceId: number,
  configId: number,
): Promise<Interface[]> {
  const instance = await instanceFor(db, actor, instanceId, 'read_only')
  const config = await configOf(db, instance, configId)
  return (await interfacesOfConfigs(db, [config.id])).get(config.id) ?? []
}

export async function getInterface(
  db: Db,
  actor: Actor,
  instanceId: number,
  configId: number,
  interfaceId: number,
): Promise<Interface> {
  const instance = await instanceFor(db, actor, instanceId, 'read_only')
  const config = await configOf(db, instance, configId)
  return render(db, await interfaceOf(db, config, interfaceId))
}

/** Appends an interface to a profile; it becomes active at the profile's next boot. */
export async function addInterface(
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  configId: number,
  input: InterfaceInput,
): Promise<Interface> {
  return inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    const config = await configOf(trx, instance, configId)
    const existing = await repo.listConfigInterfaces(trx, config.id)
    if (existing.length >= MAX_INTERFACES) {
      throw badRequest(`A config profile can have at most ${MAX_INTERFACES} interfaces`)
    }
    const errors = new ErrorCollector()
    const sameKind = existing.filter((e) => e.purpose === input.purpose && input.purpose !== 'vlan')
    if (sameKind.length > 0) {
      errors.add(`Only one ${input.purpose} interface is allowed per config profile`, 'purpose')
    }
    const plan = await planInterface(trx, actor, instance, input, null, (name) => name, errors)
    errors.throwIfAny()
    const p = plan as InterfacePlan
    if (p.is_primary) await repo.clearPrimary(trx, config.id, null)
    const row = await repo.insertInterface(trx, {
      config_id: config.id,
      instance_id: instance.id,
      position: existing.length,
      purpose: p.purpose,
      label: p.label,
      ipam_address: p.ipam_address,
      is_primary: p.is_primary,
      active: false,
      vpc_id: p.vpc_id,
      subnet_id: p.subnet_id,
      ipv4_vpc: p.ipv4_vpc,
      nat_1_1: p.nat_1_1,
    })
    if (p.ranges !== null && p.ranges.length > 0) await repo.replaceRanges(trx, row.id, p.ranges)
    await recordConfigUpdate(trx, clock, actor, instance, config)
    return toInterface(row, p.ranges ?? [])
  })
}

/** Only primary, ipv4 and ip_ranges change; vlan interfaces cannot be updated (api-facts 4.3). */
export async function updateInterface(
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  configId: number,
  interfaceId: number,
  input: UpdateInterfaceBody,
): Promise<Interface> {
  return inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    const config = await configOf(trx, instance, configId)
    const row = await interfaceOf(trx, config, interfaceId)
    if (row.purpose === 'vlan') throw badRequest('VLAN interfaces cannot be updated')
    const errors = new ErrorCollector()
    const currentRanges = (await repo.listRangesOfInterfaces(trx, [row.id])).map((r) => r.range)
    const plan = await planInterface(
      trx,
      actor,
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
    const p = plan as InterfacePlan
    if (p.is_primary && !row.is_primary) await repo.clearPrimary(trx, config.id, row.id)
    const next = await repo.updateInterface(trx, row.id, {
      is_primary: p.is_primary,
      ipv4_vpc: p.ipv4_vpc,
      nat_1_1: p.nat_1_1,
    })
    if (p.ranges !== null) await repo.replaceRanges(trx, row.id, p.ranges)
    await recordConfigUpdate(trx, clock, actor, instance, config)
    return toInterface(next, p.ranges ?? currentRanges)
  })
}

/** An active interface cannot be deleted: the instance must be off or running another profile. */
export async function deleteInterface(
  db: Db,
  clock: Clock,
  actor: Actor,
  instanceId: number,
  configId: number,
  interfaceId: number,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const instance = await instanceFor(trx, actor, instanceId, 'read_write')
    const config = await configOf(trx, instance, configId)
    const row = await interfaceOf(trx, config, interfaceId)
    if (row.active) {
      throw badRequest(
        'An active interface cannot be deleted; shut the Compute down or boot it from another config profile first',
      )
    }
    await repo.deleteInterfaces(trx, [row.id])
    await repo.closePositionGap(trx, config.id, row.position)
    await recordConfigUpdate(trx, clock, actor, instance, config)
  })
}

/** Interface changes are config changes (api-facts 4.3): the profile is updated and says so. */
async function recordConfigUpdate(
  db: Db,
  clock: Clock,
  actor: Actor,
  instance: InstanceRow,
  config: ConfigRow,
) {
  const now = nowTimestamp(clock)
  await updateConfig(db, config.id, { updated: now })
  await recordEvent(
    db,
    computeEvent(actor, 'compute_config_update', instance, now, {
      secondary: configEntity(instance.id, config),
      status: 'notification',
    }),
  )
}
