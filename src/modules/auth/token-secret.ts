import { hash, timingSafeEqual } from 'node:crypto'
import { randomBytes } from '../../common/random.ts'

/** Token secrets: 64 hex characters (256 random bits), stored only as a SHA-256 hash. */
export const TOKEN_PATTERN = /^[0-9a-f]{64}$/
export const TOKEN_PREFIX_LENGTH = 16

export function generateTokenSecret(): string {
  return randomBytes(32).toString('hex')
}

/**
 * A fast hash is the right tool here: the secret has 256 bits of entropy, so there is nothing for
 * a slow password hash to protect, and it keeps authentication cheap on every request (the one-shot
 * `hash` costs half of a Hash object's update and digest).
 */
export function hashTokenSecret(secret: string): string {
  return hash('sha256', secret, 'hex')
}

export function tokenPrefix(secret: string): string {
  return secret.slice(0, TOKEN_PREFIX_LENGTH)
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex')
  const right = Buffer.from(b, 'hex')
  return left.length === right.length && timingSafeEqual(left, right)
}
