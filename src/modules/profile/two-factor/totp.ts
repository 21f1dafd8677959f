import { randomBytes, randomInt } from '../../../common/random.ts'

/**
 * RFC 6238 TOTP through otplib: SHA-1, 6 digits, 30-second steps, what every authenticator app
 * uses. A code is accepted one step either side of now (clock drift), and never for a step at or
 * before the last one accepted, so a code works once.
 */
export const TOTP_PERIOD_SECONDS = 30
/** otplib's tolerance is in seconds: one period either side is ±1 step. */
const TOLERANCE_SECONDS = TOTP_PERIOD_SECONDS

/** 160 random bits in base32 (32 characters), the size RFC 4226 recommends. */
export function newTotpSecret(): string {
  // Base32 (RFC 4648, unpadded) of bytes from the server's one random source, so a seeded run
  // hands out the same secret.
  const bytes = randomBytes(20)
  let bits = 0
  let value = 0
  let out = ''
  for (const byte of bytes) {
    value = (value << 8) | byte
    bits += 8
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31]
      bits -= 5
    }
  }
  return out
}

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567'

/** The time step the code belongs to, or undefined when it is not a current code. */
export async function matchTotp(
  secret: string,
  code: string,
  now: Date,
  afterTimeStep: number | null,
): Promise<number | undefined> {
  if (!/^[0-9]{6}$/.test(code)) return undefined
  // Loaded by the first check rather than at start-up: few requests need it.
  const { verify } = await import('otplib')
  const result = await verify({
    secret,
    token: code,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterTimeStep !== null && { afterTimeStep }),
  })
  // The TOTP strategy's result carries the matched step (the union type also covers HOTP).
  return result.valid ? (result as { timeStep: number }).timeStep : undefined
}

const SCRATCH_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789'
const SCRATCH_LENGTH = 16

/** A one-use code for when the authenticator is not at hand: 16 characters, 80 random bits. */
export function newScratchCode(): string {
  let code = ''
  for (let i = 0; i < SCRATCH_LENGTH; i++) code += SCRATCH_ALPHABET[randomInt(SCRATCH_ALPHABET.length)]
  return code
}
