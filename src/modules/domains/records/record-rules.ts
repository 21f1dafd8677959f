import type { ErrorCollector } from '../../../common/errors.ts'
import {
  isDomainName,
  isHostname,
  isIPv4,
  isIPv6,
  isRecordName,
  normalizeName,
  relativeName,
  roundTtlNearest,
} from '../dns-names.ts'
import type { DomainRecordRow, RecordType } from './records.table.ts'

/** What a client gives for a record (after merging an update onto the record it changes). */
export interface RecordInput {
  name?: string | undefined
  target?: string | undefined
  priority?: number | undefined
  weight?: number | undefined
  port?: number | undefined
  service?: string | null | undefined
  protocol?: string | null | undefined
  ttl_sec?: number | undefined
  tag?: 'issue' | 'issuewild' | 'iodef' | null | undefined
}

export type RecordValues = Pick<
  DomainRecordRow,
  'name' | 'target' | 'priority' | 'weight' | 'port' | 'service' | 'protocol' | 'ttl_sec' | 'tag'
>

/** Types whose target is a host name. */
const HOST_TARGETS = new Set<RecordType>(['CNAME', 'NS', 'MX', 'SRV', 'PTR'])
const SRV_PROTOCOLS = new Set(['tcp', 'udp', 'xmpp', 'tls', 'smtp'])
const SERVICE = /^[a-z0-9-]{1,63}$/

function required<T>(
  value: T | null | undefined,
  field: string,
  reason: string,
  errors: ErrorCollector,
): value is T {
  if (value === undefined || value === null || value === '') {
    errors.add(reason, field)
    return false
  }
  return true
}

/**
 * The stored values of a record of `type` in `zone`, by its type's rules: what its target must be,
 * which fields it needs, its name relative to the zone, and its TTL rounded to an allowed value.
 * Fields its type does not use are stored as 0 or null, as the real service returns them.
 */
export function planRecord(
  type: RecordType,
  input: RecordInput,
  zone: string,
  errors: ErrorCollector,
): RecordValues {
  let name = relativeName(input.name ?? '', zone)
  let target = (input.target ?? '').trim()
  const values: RecordValues = {
    name,
    target,
    priority: 0,
    weight: 0,
    port: 0,
    service: null,
    protocol: null,
    ttl_sec: roundTtlNearest(input.ttl_sec ?? 0),
    tag: null,
  }

  if (type === 'A' && !isIPv4(target)) errors.add('Target must be a valid IPv4 address', 'target')
  if (type === 'AAAA' && !isIPv6(target)) errors.add('Target must be a valid IPv6 address', 'target')
  if (HOST_TARGETS.has(type)) {
    target = normalizeName(target)
    if (!isHostname(target)) errors.add('Target must be a valid hostname', 'target')
  }
  if (type === 'TXT') required(target, 'target', 'Target is required for TXT records', errors)
  if (type === 'CNAME' && name === '') errors.add('A CNAME record needs a name below the zone', 'name')
  if (type === 'MX' || type === 'SRV') {
    if (required(input.priority, 'priority', `Priority is required for ${type} records`, errors)) {
      values.priority = input.priority
    }
  }
  if (type === 'SRV') {
    const service = input.service?.replace(/^_/, '').toLowerCase()
    const protocol = input.protocol?.replace(/^_/, '').toLowerCase()
    if (required(service, 'service', 'Service is required for SRV records', errors)) {
      if (SERVICE.test(service)) values.service = service
      else errors.add('Service may only contain letters, numbers and dashes', 'service')
    }
    if (required(protocol, 'protocol', 'Protocol is required for SRV records', errors)) {
      if (SRV_PROTOCOLS.has(protocol)) values.protocol = protocol
      else errors.add(`Protocol must be one of: ${[...SRV_PROTOCOLS].join(', ')}`, 'protocol')
    }
    if (required(input.port, 'port', 'Port is required for SRV records', errors)) values.port = input.port
    if (required(input.weight, 'weight', 'Weight is required for SRV records', errors))
      values.weight = input.weight
    // An SRV record's name is its service and protocol.
    name = `_${values.service ?? service ?? ''}._${values.protocol ?? protocol ?? ''}`
  }
  if (type === 'CAA') {
    if (required(input.tag, 'tag', 'Tag is required for CAA records', errors)) values.tag = input.tag
    if (required(target, 'target', 'Target is required for CAA records', errors)) {
      if (input.tag === 'iodef' && !/^(mailto:|https?:\/\/)\S+$/.test(target)) {
        errors.add('Target must be a mailto: or http(s) URL for iodef', 'target')
      } else if (input.tag !== 'iodef' && target !== ';' && !isDomainName(normalizeName(target))) {
        errors.add('Target must be a domain name for issue and issuewild', 'target')
      }
    }
  }
  if (type !== 'SRV' && !isRecordName(name)) errors.add('Name is not a valid host name', 'name')
  return { ...values, name, target }
}
