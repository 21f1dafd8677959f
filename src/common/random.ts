import { createHash, randomBytes as cryptoRandomBytes, randomInt as cryptoRandomInt } from 'node:crypto'

/**
 * The one source of the random values the server hands out (tokens, upload secrets, referral
 * codes, labels, addresses…). By default it is the operating system's CSPRNG. With a seed
 * (CLOUDPLANE_RANDOM_SEED) it is a deterministic stream instead, SHA-256 in counter mode, so two
 * runs of the same test see the same bytes: an emulator feature, never for a server people use
 * for real secrets. Cryptographic nonces (the secret box's IVs) stay on the CSPRNG regardless.
 */
let seeded: { seed: string; counter: number } | undefined

/** Starts the deterministic stream (a seed), or goes back to the CSPRNG (undefined). */
export function seedRandom(seed: string | undefined): void {
  seeded = seed === undefined ? undefined : { seed, counter: 0 }
}

export function isRandomSeeded(): boolean {
  return seeded !== undefined
}

export function randomBytes(size: number): Buffer {
  if (seeded === undefined) return cryptoRandomBytes(size)
  const out = Buffer.alloc(size)
  let filled = 0
  while (filled < size) {
    const block = createHash('sha256')
      .update(`${seeded.seed}:${seeded.counter++}`)
      .digest()
    filled += block.copy(out, filled)
  }
  return out
}

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex')

/** An integer in [min, max) (or [0, min) with one argument), like crypto.randomInt. */
export function randomInt(min: number, max?: number): number {
  const [low, high] = max === undefined ? [0, min] : [min, max]
  if (seeded === undefined) return cryptoRandomInt(low, high)
  const range = high - low
  // 48 bits, rejection-sampled so every value is equally likely.
  const limit = 2 ** 48 - (2 ** 48 % range)
  for (;;) {
    const value = randomBytes(6).readUIntBE(0, 6)
    if (value < limit) return low + (value % range)
  }
}

/** An RFC 4122 version 4 UUID drawn from the same source. */
export function randomUUID(): string {
  const b = randomBytes(16)
  b[6] = ((b[6] as number) & 0x0f) | 0x40
  b[8] = ((b[8] as number) & 0x3f) | 0x80
  const h = b.toString('hex')
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`
}
