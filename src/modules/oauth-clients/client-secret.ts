import { randomBytes } from '../../common/random.ts'
import { generateTokenSecret, hashTokenSecret, sameDigest } from '../auth/token-secret.ts'

/** What every read shows instead of the secret, as the real API does. */
export const REDACTED = '<REDACTED>'

export const newClientId = (): string => randomBytes(10).toString('hex')

/** 256 random bits, like a token: a fast hash suffices to store it (see token-secret.ts). */
export function newClientSecret(): { secret: string; hash: string } {
  const secret = generateTokenSecret()
  return { secret, hash: hashTokenSecret(secret) }
}

/** Constant-time check of a presented client secret. */
export function clientSecretMatches(storedHash: string, presented: string): boolean {
  return sameDigest(storedHash, hashTokenSecret(presented))
}
