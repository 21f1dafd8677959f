import { createPublicKey } from 'node:crypto'
import type sshpk from 'sshpk'
import { lazyModule } from '../../../startup/lazy-module.ts'

/** Only the SSH key routes parse keys: sshpk loads on the first. */
const loadSshpk = lazyModule<typeof sshpk>('sshpk')

/**
 * Checks an OpenSSH public key line (`<type> <base64 blob> [comment]`) by decoding it, not by
 * pattern: the type must be one the API accepts, the blob must decode to a key of exactly that
 * type, and the key material must be a valid public key. sshpk parses the classic types; it does
 * not know the FIDO (`sk-`) types, so those are decoded here from the OpenSSH wire format
 * (PROTOCOL.u2f): `string type, [string curve,] string key, string application`.
 */

/** The API's error text for an unaccepted type (recorded from the vendor's console). */
export const KEY_TYPE_REASON =
  'SSH Key key-type must be ssh-dss, ssh-rsa, ecdsa-sha2-nistp, ssh-ed25519, or sk-ecdsa-sha2-nistp256.'

export const keyDataReason = (type: string) => `SSH Key key-data is not a valid ${type} public key.`

const SK_ECDSA = 'sk-ecdsa-sha2-nistp256@openssh.com'
const SK_ED25519 = 'sk-ssh-ed25519@openssh.com'

/** Accepted spellings of the key type, each mapped to its wire name. */
const WIRE_NAMES: Record<string, string> = {
  'ssh-rsa': 'ssh-rsa',
  'ssh-dss': 'ssh-dss',
  'ecdsa-sha2-nistp256': 'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384': 'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521': 'ecdsa-sha2-nistp521',
  'ssh-ed25519': 'ssh-ed25519',
  [SK_ECDSA]: SK_ECDSA,
  [SK_ED25519]: SK_ED25519,
  // The API document's spellings, without the OpenSSH vendor suffix.
  'sk-ecdsa-sha2-nistp256': SK_ECDSA,
  'sk-ssh-ed25519': SK_ED25519,
}

/** sshpk's name for each classic type, and the curve for ECDSA. */
const SSHPK_TYPES: Record<string, { type: string; curve?: string }> = {
  'ssh-rsa': { type: 'rsa' },
  'ssh-dss': { type: 'dsa' },
  'ecdsa-sha2-nistp256': { type: 'ecdsa', curve: 'nistp256' },
  'ecdsa-sha2-nistp384': { type: 'ecdsa', curve: 'nistp384' },
  'ecdsa-sha2-nistp521': { type: 'ecdsa', curve: 'nistp521' },
  'ssh-ed25519': { type: 'ed25519' },
}

const LINE = /^([^\s]+)[ \t]+([^\s]+)(?:[ \t]+[^\r\n]*)?$/
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/

/** A reason the key is refused, or undefined when it is a valid key of an accepted type. */
export function publicKeyProblem(text: string): string | undefined {
  const match = LINE.exec(text.trim())
  const wireName = match ? WIRE_NAMES[match[1] as string] : undefined
  if (match === null || wireName === undefined) return KEY_TYPE_REASON
  const typeName = match[1] as string
  const encoded = match[2] as string
  if (!BASE64.test(encoded)) return keyDataReason(typeName)
  const blob = Buffer.from(encoded, 'base64')
  const valid =
    wireName === SK_ECDSA
      ? isSkEcdsaKey(blob)
      : wireName === SK_ED25519
        ? isSkEd25519Key(blob)
        : isClassicKey(wireName, encoded, blob)
  return valid ? undefined : keyDataReason(typeName)
}

function isClassicKey(wireName: string, encoded: string, blob: Buffer): boolean {
  const reader = new WireReader(blob)
  if (reader.string()?.toString('latin1') !== wireName) return false
  const expected = SSHPK_TYPES[wireName]
  let key: sshpk.Key
  try {
    key = loadSshpk().parseKey(`${wireName} ${encoded}`, 'ssh')
  } catch {
    return false
  }
  if (key.type !== expected?.type) return false
  if (expected.curve !== undefined && key.curve !== expected.curve) return false
  // OpenSSL checks what sshpk does not: that an EC point lies on its curve, that RSA/DSA numbers are sane.
  try {
    createPublicKey(key.toString('pkcs8'))
    return true
  } catch {
    return false
  }
}

function isSkEcdsaKey(blob: Buffer): boolean {
  const reader = new WireReader(blob)
  if (reader.string()?.toString('latin1') !== SK_ECDSA) return false
  if (reader.string()?.toString('latin1') !== 'nistp256') return false
  const point = reader.string()
  const application = reader.string()
  if (point === undefined || application === undefined || application.length === 0 || !reader.done)
    return false
  // An uncompressed P-256 point: 0x04 || x (32 bytes) || y (32 bytes).
  if (point.length !== 65 || point[0] !== 0x04) return false
  return isValidJwk({
    kty: 'EC',
    crv: 'P-256',
    x: point.subarray(1, 33).toString('base64url'),
    y: point.subarray(33).toString('base64url'),
  })
}

function isSkEd25519Key(blob: Buffer): boolean {
  const reader = new WireReader(blob)
  if (reader.string()?.toString('latin1') !== SK_ED25519) return false
  const key = reader.string()
  const application = reader.string()
  if (key === undefined || application === undefined || application.length === 0 || !reader.done) return false
  if (key.length !== 32) return false
  return isValidJwk({ kty: 'OKP', crv: 'Ed25519', x: key.toString('base64url') })
}

interface PublicJwk {
  kty: 'EC' | 'OKP'
  crv: string
  x: string
  y?: string
}

function isValidJwk(jwk: PublicJwk): boolean {
  try {
    createPublicKey({ key: { ...jwk }, format: 'jwk' })
    return true
  } catch {
    return false
  }
}

/** Reads the SSH wire format's length-prefixed strings (RFC 4251 section 5). */
class WireReader {
  readonly #buffer: Buffer
  #offset = 0

  constructor(buffer: Buffer) {
    this.#buffer = buffer
  }

  get done(): boolean {
    return this.#offset === this.#buffer.length
  }

  string(): Buffer | undefined {
    if (this.#offset + 4 > this.#buffer.length) return undefined
    const length = this.#buffer.readUInt32BE(this.#offset)
    const start = this.#offset + 4
    if (start + length > this.#buffer.length) return undefined
    this.#offset = start + length
    return this.#buffer.subarray(start, start + length)
  }
}
