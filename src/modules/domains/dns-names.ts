import ipaddr from 'ipaddr.js'

/**
 * DNS name and value rules shared by domains and their records, as the real service applies them.
 */

/** The only TTLs a zone and its records take (0: the zone's default). */
export const TTL_VALUES = [
  0, 30, 120, 300, 3600, 7200, 14400, 28800, 57600, 86400, 172800, 345600, 604800, 1209600, 2419200,
] as const

const TTL_MAX = TTL_VALUES[TTL_VALUES.length - 1] as number

/** A zone's times are rounded up to the next allowed value (at most the largest). */
export function roundTtlUp(seconds: number): number {
  return TTL_VALUES.find((v) => v >= seconds) ?? TTL_MAX
}

/** A record's TTL is rounded to the nearest allowed value (up, between two). */
export function roundTtlNearest(seconds: number): number {
  let best: number = TTL_VALUES[0]
  for (const v of TTL_VALUES) if (Math.abs(v - seconds) <= Math.abs(best - seconds)) best = v
  return best
}

const LABEL = /^(?!-)[a-z0-9_-]{1,63}(?<!-)$/
const TOP_LABEL = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/

/** A name without the trailing dot of its absolute form, in lower case. */
export const normalizeName = (name: string): string => name.trim().replace(/\.$/, '').toLowerCase()

/** A domain of at least two labels ending in an alphabetic (or punycode) top-level label. */
export function isDomainName(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false
  const labels = name.split('.')
  return labels.length >= 2 && labels.every((l) => LABEL.test(l)) && TOP_LABEL.test(labels.at(-1) as string)
}

/** A host name a record can point at: one or more labels. */
export function isHostname(name: string): boolean {
  if (name.length === 0 || name.length > 253) return false
  return name.split('.').every((l) => LABEL.test(l))
}

/**
 * A record's name relative to its zone: `www.example.com` in `example.com` is `www`, and the zone
 * itself (or its absolute form) is the empty name.
 */
export function relativeName(name: string, zone: string): string {
  const n = normalizeName(name)
  if (n === zone) return ''
  return n.endsWith(`.${zone}`) ? n.slice(0, -(zone.length + 1)) : n
}

/** Labels of a record name: host labels, with a wildcard `*` allowed first. */
export function isRecordName(name: string): boolean {
  if (name === '') return true
  if (name.length > 100) return false
  return name.split('.').every((l, i) => (i === 0 && l === '*') || LABEL.test(l))
}

export const isIPv4 = (text: string): boolean => ipaddr.IPv4.isValidFourPartDecimal(text)

export const isIPv6 = (text: string): boolean =>
  text.includes(':') && !text.includes('%') && ipaddr.IPv6.isValid(text)

export const isIpAddress = (text: string): boolean => isIPv4(text) || isIPv6(text)

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

export const isEmail = (text: string): boolean => EMAIL.test(text)
