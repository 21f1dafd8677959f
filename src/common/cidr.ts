import ipaddr from 'ipaddr.js'

/**
 * IPv4 address and CIDR helpers over ipaddr.js, with addresses as unsigned 32-bit numbers so that
 * ranges can be compared and walked. Parsing is strict: four plain decimal octets (no leading zeros,
 * no octal or hex forms) and a decimal prefix, so what is stored is exactly what was validated.
 */
export interface Ipv4Range {
  /** First address of the range (the network address when canonical). */
  first: number
  /** Last address of the range (the broadcast address). */
  last: number
  prefix: number
}

const PREFIX = /^(?:0|[1-9][0-9]?)$/

const toNumber = (address: ipaddr.IPv4): number => address.octets.reduce((n, octet) => n * 256 + octet, 0)

export function formatIpv4(value: number): string {
  return [value >>> 24, (value >>> 16) & 255, (value >>> 8) & 255, value & 255].join('.')
}

/** A dotted-decimal IPv4 address as a number, or undefined. */
export function parseIpv4(text: string): number | undefined {
  if (!ipaddr.IPv4.isValidFourPartDecimal(text)) return undefined
  return toNumber(ipaddr.IPv4.parse(text))
}

export interface ParsedCidr {
  /** The address as written (host bits may be set). */
  address: number
  prefix: number
}

/** `a.b.c.d/n` with n in 0..32, or undefined. Host bits are allowed here; see `isCanonical`. */
export function parseIpv4Cidr(text: string): ParsedCidr | undefined {
  const slash = text.indexOf('/')
  if (slash < 0) return undefined
  const prefixText = text.slice(slash + 1)
  if (!PREFIX.test(prefixText) || !ipaddr.IPv4.isValidCIDRFourPartDecimal(text)) return undefined
  const [address, prefix] = ipaddr.IPv4.parseCIDR(text)
  return { address: toNumber(address), prefix }
}

export function rangeOf(cidr: ParsedCidr): Ipv4Range {
  const size = 2 ** (32 - cidr.prefix)
  const first = cidr.address - (cidr.address % size)
  return { first, last: first + size - 1, prefix: cidr.prefix }
}

export const isCanonical = (cidr: ParsedCidr): boolean => rangeOf(cidr).first === cidr.address

export const formatCidr = (range: Ipv4Range): string => `${formatIpv4(range.first)}/${range.prefix}`

export const rangeSize = (range: Ipv4Range): number => range.last - range.first + 1

export const overlaps = (a: Ipv4Range, b: Ipv4Range): boolean => a.first <= b.last && b.first <= a.last

export const containsRange = (outer: Ipv4Range, inner: Ipv4Range): boolean =>
  outer.first <= inner.first && inner.last <= outer.last

export const containsAddress = (range: Ipv4Range, address: number): boolean =>
  range.first <= address && address <= range.last

export function subnetMask(prefix: number): string {
  return ipaddr.IPv4.subnetMaskFromPrefixLength(prefix).toString()
}

/** Parses a canonical CIDR already known to be valid (a stored subnet range). */
export function storedRange(text: string): Ipv4Range {
  const parsed = parseIpv4Cidr(text)
  if (parsed === undefined) throw new Error(`not a CIDR: ${text}`)
  return rangeOf(parsed)
}
