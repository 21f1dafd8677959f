import { createHash, timingSafeEqual } from 'node:crypto'
import { randomHex } from '../../common/random.ts'
import type { Db } from '../../db/connect.ts'
import { getMeta, insertMetaIfAbsent, setMeta } from '../../db/meta.repository.ts'

/** The header that carries the admin key; an API token is never accepted on the control API. */
export const ADMIN_KEY_HEADER = 'x-cloudplane-admin-key'

const hashKey = (key: string): string => createHash('sha256').update(key, 'utf8').digest('hex')

/**
 * Makes sure the database knows the admin key: a configured one replaces what is stored (every
 * process started with it agrees); otherwise the first start generates one, stores its hash and
 * returns it to be shown once. Returns the new key only when one was generated now.
 */
export async function ensureAdminKey(db: Db, configured: string | undefined): Promise<string | undefined> {
  if (configured !== undefined) {
    const hash = hashKey(configured)
    if ((await getMeta(db, 'admin_key_hash')) !== hash) await setMeta(db, 'admin_key_hash', hash)
    return undefined
  }
  if ((await getMeta(db, 'admin_key_hash')) !== undefined) return undefined
  const key = randomHex(32)
  await insertMetaIfAbsent(db, 'admin_key_hash', hashKey(key))
  // Another process may have stored its own first: then ours is not the key, and is not shown.
  return (await getMeta(db, 'admin_key_hash')) === hashKey(key) ? key : undefined
}

/** Whether `presented` is the admin key, compared in constant time against the stored hash. */
export async function isAdminKey(db: Db, presented: string | undefined): Promise<boolean> {
  if (presented === undefined || presented.length === 0 || presented.length > 256) return false
  const stored = await getMeta(db, 'admin_key_hash')
  if (stored === undefined) return false
  const a = Buffer.from(hashKey(presented), 'hex')
  const b = Buffer.from(stored, 'hex')
  return a.length === b.length && timingSafeEqual(a, b)
}
