import {
  containsRange,
  formatCidr,
  type Ipv4Range,
  isCanonical,
  overlaps,
  parseIpv4Cidr,
  rangeOf,
  storedRange,
} from '../../../common/cidr.ts'

/**
 * Subnets live in RFC 1918 space, outside the block kept for the private-IP feature
 * (docs/service-facts.md#subnet-ranges).
 */
const PRIVATE_SPACE = ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16'].map(storedRange)
const RESERVED = storedRange('192.168.128.0/17')
const MIN_PREFIX = 1
const MAX_PREFIX = 29

export type RangeCheck = { range: Ipv4Range; problem?: undefined } | { range?: undefined; problem: string }

/** The rules a subnet range must meet on its own; overlap with siblings is checked by the caller. */
export function checkSubnetRange(text: string): RangeCheck {
  const parsed = parseIpv4Cidr(text)
  if (parsed === undefined) return { problem: 'Must be an IPv4 range in CIDR notation, e.g. 10.0.0.0/24' }
  const range = rangeOf(parsed)
  if (!isCanonical(parsed)) {
    return { problem: `Must be a canonical CIDR with the host bits zero, e.g. ${formatCidr(range)}` }
  }
  if (parsed.prefix < MIN_PREFIX || parsed.prefix > MAX_PREFIX) {
    return { problem: `Prefix length must be between /${MIN_PREFIX} and /${MAX_PREFIX}` }
  }
  if (!PRIVATE_SPACE.some((space) => containsRange(space, range))) {
    return { problem: 'Must be within 10.0.0.0/8, 172.16.0.0/12 or 192.168.0.0/16' }
  }
  if (overlaps(range, RESERVED)) return { problem: 'Must not overlap 192.168.128.0/17, which is reserved' }
  return { range }
}

export interface NamedRange {
  label: string
  range: Ipv4Range
}

/** The first sibling the range overlaps, if any. */
export function firstOverlap(range: Ipv4Range, siblings: readonly NamedRange[]): NamedRange | undefined {
  return siblings.find((s) => overlaps(s.range, range))
}
