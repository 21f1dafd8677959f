import { storedRange } from '../../../common/cidr.ts'
import type { ErrorCollector } from '../../../common/errors.ts'
import {
  isIpamAddress,
  planNat,
  planRanges,
  planVpcAddress,
  type SubnetHoldings,
  VLAN_LABEL,
} from './interface-rules.ts'
import type { InterfaceInput } from './interfaces.schemas.ts'
import type { InterfaceRow } from './interfaces.table.ts'

/**
 * Works out what a profile's interfaces become after a write, without touching the database: the
 * service looks up the subnet and its holdings and hands them in, so every rule here is pure.
 */

/** At most three interfaces (eth0..eth2) per profile (docs/service-facts.md#config-interfaces). */
export const MAX_INTERFACES = 3

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

export interface InterfaceListPlan {
  plans: InterfacePlan[]
  removed: InterfaceRow[]
}

/** The subnet a vpc interface joins, as the service found it. */
export interface PlannedSubnet {
  id: number
  vpc_id: number
  region: string
  ipv4: string
}

/** Reports a problem on the field named relative to the interface being planned. */
export type FieldOf = (name: string) => string

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
 * The plan of one requested interface from the request alone: the fields its purpose forbids are
 * reported, and a vlan interface is complete. A vpc interface is finished by `planVpcFields` once
 * its subnet is known.
 */
export function startPlan(
  input: InterfaceInput,
  keep: InterfaceRow | null,
  field: FieldOf,
  errors: ErrorCollector,
): InterfacePlan {
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
  return plan
}

/** The subnet id a vpc interface asks for, or undefined (reported) when it names none. */
export function requestedSubnet(
  input: InterfaceInput,
  field: FieldOf,
  errors: ErrorCollector,
): number | undefined {
  if (present(input.subnet_id)) return input.subnet_id as number
  errors.add('subnet_id is required for vpc interfaces', field('subnet_id'))
  return undefined
}

/** A vpc interface can only join a subnet in its instance's region. */
export function subnetInRegion(
  subnet: PlannedSubnet,
  instanceRegion: string,
  field: FieldOf,
  errors: ErrorCollector,
): boolean {
  if (subnet.region === instanceRegion) return true
  errors.add(
    `The subnet's VPC is in ${subnet.region}; this Compute is in ${instanceRegion}`,
    field('subnet_id'),
  )
  return false
}

/**
 * Finishes a vpc interface's plan in its subnet: its address, its 1:1 NAT (to the instance's public
 * `publicIpv4`) and its routed ranges, none of them taken from `holdings` of other instances.
 */
export function planVpcFields(
  plan: InterfacePlan,
  input: InterfaceInput,
  subnet: PlannedSubnet,
  holdings: SubnetHoldings,
  publicIpv4: string,
  field: FieldOf,
  errors: ErrorCollector,
): void {
  const { keep } = plan
  const range = storedRange(subnet.ipv4)
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
      : planNat(input.ipv4?.nat_1_1, publicIpv4, field('ipv4.nat_1_1'), errors)
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

/** An existing interface continues a requested one at the same slot with the same identity. */
function continues(existing: InterfaceRow | undefined, input: InterfaceInput): existing is InterfaceRow {
  if (existing === undefined || existing.purpose !== input.purpose) return false
  if (input.purpose === 'vpc') return existing.subnet_id === input.subnet_id
  if (input.purpose === 'vlan') return existing.label === input.label
  return true
}

/** Which existing interface each requested one continues (null: a new one), and which go. */
export function matchExisting(
  existing: readonly InterfaceRow[],
  inputs: readonly InterfaceInput[],
): { keeps: Array<InterfaceRow | null>; removed: InterfaceRow[] } {
  const keeps = inputs.map((input, i) => {
    const candidate = existing[i]
    return continues(candidate, input) ? candidate : null
  })
  const kept = new Set(keeps.flatMap((keep) => (keep === null ? [] : [keep.id])))
  return { keeps, removed: existing.filter((e) => !kept.has(e.id)) }
}

/** An active interface cannot be removed by rewriting the list. */
export function checkRemovals(
  removed: readonly InterfaceRow[],
  listField: string,
  errors: ErrorCollector,
): void {
  if (removed.some((r) => r.active)) {
    errors.add('An active interface cannot be removed; shut the Compute down first', listField)
  }
}

/** The stored columns of a planned interface at eth `position`. */
export function plannedColumns(plan: InterfacePlan, position: number) {
  return {
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
}
