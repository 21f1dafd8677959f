import {
  containsAddress,
  formatCidr,
  formatIpv4,
  type Ipv4Range,
  isCanonical,
  overlaps,
  parseIpv4,
  parseIpv4Cidr,
  rangeOf,
  storedRange,
} from '../../../common/cidr.ts'
import type { ErrorCollector } from '../../../common/errors.ts'

/**
 * The address rules of `vpc` interfaces (docs/service-facts.md#config-interfaces). The first two
 * addresses of a subnet (the network and the `.1` gateway) and the last two are never assigned.
 * An address or routed range held by another instance in the subnet cannot be taken; one instance
 * may repeat its own address across profiles (only one profile runs at a time), which is why the
 * VPC IP list can show duplicates.
 */
export interface SubnetHoldings {
  addresses: number[]
  ranges: Ipv4Range[]
}

export function holdingsOf(raw: { addresses: string[]; ranges: string[] }): SubnetHoldings {
  return {
    addresses: raw.addresses.flatMap((a) => {
      const n = parseIpv4(a)
      return n === undefined ? [] : [n]
    }),
    ranges: raw.ranges.map(storedRange),
  }
}

const usable = (subnet: Ipv4Range) => ({ first: subnet.first + 2, last: subnet.last - 2 })

const isHeld = (holdings: SubnetHoldings, address: number): boolean =>
  holdings.addresses.includes(address) || holdings.ranges.some((r) => containsAddress(r, address))

/** The first assignable address not held by another instance, or undefined when the subnet is full. */
export function firstFreeAddress(subnet: Ipv4Range, holdings: SubnetHoldings): number | undefined {
  const { first, last } = usable(subnet)
  const taken = new Set(holdings.addresses)
  for (let address = first; address <= last; address++) {
    if (taken.has(address)) continue
    if (holdings.ranges.some((r) => containsAddress(r, address))) {
      const range = holdings.ranges.find((r) => containsAddress(r, address)) as Ipv4Range
      address = range.last
      continue
    }
    return address
  }
  return undefined
}

/**
 * The VPC address of an interface: the requested one if it is allowed, else the current one, else
 * the first free one. Reports problems on `field` and returns undefined then.
 */
export function planVpcAddress(
  subnet: Ipv4Range,
  holdings: SubnetHoldings,
  requested: string | null | undefined,
  current: string | null,
  field: string,
  errors: ErrorCollector,
): string | undefined {
  if (requested === undefined || requested === null || requested === '') {
    if (current !== null) return current
    const free = firstFreeAddress(subnet, holdings)
    if (free === undefined) {
      errors.add('No IPv4 addresses are available in this subnet', field)
      return undefined
    }
    return formatIpv4(free)
  }
  const address = parseIpv4(requested)
  if (address === undefined) {
    errors.add('Must be a valid IPv4 address', field)
    return undefined
  }
  if (!containsAddress(subnet, address)) {
    errors.add(`Must be within the subnet's range ${formatCidr(subnet)}`, field)
    return undefined
  }
  const { first, last } = usable(subnet)
  if (address < first || address > last) {
    errors.add('Must not be one of the first two or the last two addresses of the subnet', field)
    return undefined
  }
  if (isHeld(holdings, address)) {
    errors.add(`${requested} is already in use in this subnet`, field)
    return undefined
  }
  return formatIpv4(address)
}

/** Routed ranges: canonical CIDRs (a bare address is a /32) inside the subnet's assignable part. */
export function planRanges(
  subnet: Ipv4Range,
  holdings: SubnetHoldings,
  ownAddress: string | undefined,
  inputs: readonly string[],
  field: (index: number) => string,
  errors: ErrorCollector,
): string[] {
  const own = ownAddress === undefined ? undefined : parseIpv4(ownAddress)
  const accepted: Ipv4Range[] = []
  for (const [j, text] of inputs.entries()) {
    const problem = rangeProblem(text, subnet, own, accepted, holdings)
    if (typeof problem === 'string') errors.add(problem, field(j))
    else accepted.push(problem)
  }
  return accepted.map(formatCidr)
}

/** What is wrong with one routed range, or the range itself. */
function rangeProblem(
  text: string,
  subnet: Ipv4Range,
  own: number | undefined,
  accepted: readonly Ipv4Range[],
  holdings: SubnetHoldings,
): string | Ipv4Range {
  const { first, last } = usable(subnet)
  const parsed = parseIpv4Cidr(text.includes('/') ? text : `${text}/32`)
  if (parsed === undefined) return 'Must be an IPv4 range in CIDR notation'
  const range = rangeOf(parsed)
  if (!isCanonical(parsed))
    return `Must be a canonical CIDR with the host bits zero, e.g. ${formatCidr(range)}`
  if (range.first < first || range.last > last) {
    return `Must be within the subnet's range ${formatCidr(subnet)}, without its first two and last two addresses`
  }
  if (own !== undefined && containsAddress(range, own)) return "Must not include the interface's own address"
  if (accepted.some((r) => overlaps(r, range))) return 'Overlaps another range of this interface'
  if (
    holdings.addresses.some((a) => containsAddress(range, a)) ||
    holdings.ranges.some((r) => overlaps(r, range))
  ) {
    return 'Overlaps an address or range already in use in this subnet'
  }
  return range
}

/**
 * The routed range of the interface's own that a new address of it would fall in, if any: the
 * rule `rangeProblem` keeps when both are sent, for an update that sends the address alone.
 */
export function ownRangeHolding(address: string, ranges: readonly string[]): string | undefined {
  const parsed = parseIpv4(address)
  if (parsed === undefined) return undefined
  return ranges.find((text) => {
    const cidr = parseIpv4Cidr(text)
    return cidr !== undefined && containsAddress(rangeOf(cidr), parsed)
  })
}

/** `any` means the instance's public IPv4; a specific address must be that one; empty means none. */
export function planNat(
  value: string | null | undefined,
  publicIpv4: string,
  field: string,
  errors: ErrorCollector,
): string | null {
  if (value === undefined || value === null || value === '') return null
  if (value === 'any' || value === publicIpv4) return publicIpv4
  errors.add('Must be "any" or a public IPv4 address of this Compute', field)
  return null
}

/** A VLAN's `ipam_address`: an IPv4 address with its prefix, e.g. `10.0.0.1/24`. */
export function isIpamAddress(value: string): boolean {
  return parseIpv4Cidr(value) !== undefined
}

export const VLAN_LABEL = /^[A-Za-z0-9-]{1,64}$/
