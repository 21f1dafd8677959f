import ipaddr from 'ipaddr.js'
import { sql } from 'kysely'
import { formatIpv4, parseIpv4 } from '../../../common/cidr.ts'
import { badRequest } from '../../../common/errors.ts'
import type { Db } from '../../../db/connect.ts'
import { takeRow, upsertRow } from '../../../db/rows.ts'

/**
 * Public addresses come from 198.18.0.0/15, the range set aside for testing (RFC 2544), so no
 * emulated address is ever a real host's. Each region hands out its own sequence (x.y.z.2 to
 * x.y.z.254 of each /24), so an address is unique within its region. A deleted holder's host
 * number goes back to its region (`compute_ipv4_free`) and is handed out before the sequence
 * grows, so creating and deleting instances never runs a region out of addresses.
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

/** The host number of a pool address (the inverse of `hostAddress`); undefined outside the pool. */
function hostNumber(ipv4: string): number | undefined {
  const address = parseIpv4(ipv4)
  if (address === undefined || address < BASE) return undefined
  const offset = address - BASE
  const block = Math.floor(offset / 256)
  const inBlock = (offset % 256) - 2
  if (block >= BLOCKS || inBlock < 0 || inBlock >= HOSTS_PER_BLOCK) return undefined
  return block * HOSTS_PER_BLOCK + inBlock + 1
}

export interface PublicAddresses {
  ipv4: string
  ipv6: string
}

/** The region's public addresses for a new holder: a freed pair if any, else the next ones. */
export async function allocatePublicAddresses(db: Db, region: string): Promise<PublicAddresses> {
  const n = (await takeFreedHost(db, region)) ?? (await nextHost(db, region))
  const address = hostAddress(n)
  if (address === undefined) throw badRequest('No public IPv4 addresses are left in this region', 'region')
  // IPv6 from the documentation prefix (RFC 3849), the same sequence number in its last groups.
  const ipv6 = new ipaddr.IPv6([0x2001, 0xdb8, 0, 0, 0, 0, Math.floor(n / 65536), n % 65536])
  return { ipv4: formatIpv4(address), ipv6: `${ipv6.toRFC5952String()}/128` }
}

/** Gives a deleted holder's addresses back to its region (in the deleting transaction). */
export async function releasePublicAddresses(db: Db, region: string, ipv4: string): Promise<void> {
  const host = hostNumber(ipv4)
  if (host === undefined) return
  await upsertRow(db, 'compute_ipv4_free', { region, host }, ['region', 'host'], 'keep')
}

/**
 * The lowest freed host number of the region, taken off the free list. Racing processes may pick
 * the same one: only the one whose delete removes the row has it; the other looks again.
 */
async function takeFreedHost(db: Db, region: string): Promise<number | undefined> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const row = await db
      .selectFrom('compute_ipv4_free')
      .select('host')
      .where('region', '=', region)
      .orderBy('host')
      .limit(1)
      .executeTakeFirst()
    if (row === undefined) return undefined
    if (await takeRow(db, 'compute_ipv4_free', { region, host: row.host })) return Number(row.host)
  }
  return undefined
}

/** The next host number of the region's sequence: one atomic upsert, safe across processes. */
async function nextHost(db: Db, region: string): Promise<number> {
  const row = await db
    .insertInto('compute_ipv4_pools')
    .values({ region, allocated: 1 })
    .onConflict((oc) => oc.column('region').doUpdateSet({ allocated: sql`compute_ipv4_pools.allocated + 1` }))
    .returning('allocated')
    .executeTakeFirstOrThrow()
  return Number(row.allocated)
}
