import ipaddr from 'ipaddr.js'
import { sql } from 'kysely'
import { formatIpv4, parseIpv4 } from '../../../common/cidr.ts'
import { badRequest } from '../../../common/errors.ts'
import type { Db } from '../../../db/connect.ts'

/**
 * Public addresses come from 198.18.0.0/15, the range set aside for testing (RFC 2544), so no
 * emulated address is ever a real host's. Each region hands out its own sequence (x.y.z.2 to
 * x.y.z.254 of each /24), so an address is unique within its region.
 */
const BASE = parseIpv4('198.18.0.0') as number
const HOSTS_PER_BLOCK = 253
const BLOCKS = 512

function hostAddress(n: number): number | undefined {
  const index = n - 1
  const block = Math.floor(index / HOSTS_PER_BLOCK)
  if (block >= BLOCKS) return undefined
  return BASE + block * 256 + 2 + (index % HOSTS_PER_BLOCK)
}

export interface PublicAddresses {
  ipv4: string
  ipv6: string
}

/** The next public addresses of the region: one atomic upsert, safe across processes. */
export async function allocatePublicAddresses(db: Db, region: string): Promise<PublicAddresses> {
  const row = await db
    .insertInto('compute_ipv4_pools')
    .values({ region, allocated: 1 })
    .onConflict((oc) => oc.column('region').doUpdateSet({ allocated: sql`compute_ipv4_pools.allocated + 1` }))
    .returning('allocated')
    .executeTakeFirstOrThrow()
  const n = Number(row.allocated)
  const address = hostAddress(n)
  if (address === undefined) throw badRequest('No public IPv4 addresses are left in this region', 'region')
  // IPv6 from the documentation prefix (RFC 3849), the same sequence number in its last groups.
  const ipv6 = new ipaddr.IPv6([0x2001, 0xdb8, 0, 0, 0, 0, Math.floor(n / 65536), n % 65536])
  return { ipv4: formatIpv4(address), ipv6: `${ipv6.toRFC5952String()}/128` }
}
