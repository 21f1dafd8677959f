import { type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto'
import { randomBytes } from '../../common/random.ts'

/**
 * Password hashing with node:crypto's scrypt (memory-hard, no native dependency). The stored form
 * carries its own parameters and salt, `scrypt$<log2 N>$<r>$<p>$<salt>$<hash>`, so the cost can be
 * raised later without invalidating existing hashes. The default is the OWASP floor for scrypt:
 * N = 2^17, r = 8, p = 1 (128 MiB per hash).
 */
const DEFAULT_LOG_N = 17
const BLOCK_SIZE = 8
const PARALLELISM = 1
const KEY_BYTES = 32
const SALT_BYTES = 16

/** Passwords are accepted from 8 to 128 characters (long enough for passphrases, short enough to hash). */
export const PASSWORD_MIN_LENGTH = 8
export const PASSWORD_MAX_LENGTH = 128

function derive(password: string, salt: Buffer, logN: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** logN
  const options: ScryptOptions = { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFKC'), salt, KEY_BYTES, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  )
}

export async function hashPassword(password: string, logN = DEFAULT_LOG_N): Promise<string> {
  const salt = randomBytes(SALT_BYTES)
  const key = await derive(password, salt, logN, BLOCK_SIZE, PARALLELISM)
  return [
    'scrypt',
    logN,
    BLOCK_SIZE,
    PARALLELISM,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$')
}

/** Constant-time check; a malformed stored hash never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, logN, r, p, salt, hash] = stored.split('$')
  if (scheme !== 'scrypt' || salt === undefined || hash === undefined) return false
  const expected = Buffer.from(hash, 'base64url')
  const key = await derive(password, Buffer.from(salt, 'base64url'), Number(logN), Number(r), Number(p))
  return key.length === expected.length && timingSafeEqual(key, expected)
}

/**
 * A hash of no one's password (its input was random and thrown away), verified for unknown
 * usernames so that a login for a name that does not exist costs the same time as one with a
 * wrong password (no user enumeration). It has the default parameters, so the work is the same.
 * Nothing is granted when it matches: a missing user is refused whatever the outcome.
 */
export const DUMMY_PASSWORD_HASH =
  'scrypt$17$8$1$BfpT2OS0Hl2Xxxoeo65QOQ$LskI1qk_w9oJlEdN3rnyUH9JfD0Rax9RJpQ14r2Y-Ao'

export function passwordProblem(password: string): string | undefined {
  if (password.length < PASSWORD_MIN_LENGTH || password.length > PASSWORD_MAX_LENGTH) {
    return `A password must be ${PASSWORD_MIN_LENGTH}-${PASSWORD_MAX_LENGTH} characters`
  }
  return undefined
}
