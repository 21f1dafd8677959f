import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto'

/**
 * Protects profile secrets at rest with the server key (configuration or `<data dir>/secret.key`):
 *
 * - `seal`/`open`: AES-256-GCM for what must be read back (TFA secrets, security answers shown to
 *   their owner, phone codes sent again). The context (e.g. `tfa:<user id>`) is authenticated data,
 *   so a sealed value copied to another user's row does not open.
 * - `digest`/`sameDigest`: HMAC-SHA256 for what only needs comparing (scratch codes, device
 *   secrets); keyed, so a database dump alone cannot brute-force short codes.
 *
 * Each purpose gets its own subkey (HKDF), so one key never serves two uses.
 */
export type SecretPurpose =
  | 'tfa-secret'
  | 'security-answer'
  | 'phone-code'
  | 'scratch-code'
  | 'device-secret'
  | 'login-csrf'

const VERSION = 'v1'
const IV_BYTES = 12

export class SecretBox {
  readonly #keys = new Map<string, Buffer>()
  readonly #master: Buffer

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the secret key must be 32 bytes')
    this.#master = Buffer.from(masterKey)
  }

  seal(purpose: SecretPurpose, plaintext: string, context: string): string {
    const iv = randomBytes(IV_BYTES)
    const cipher = createCipheriv('aes-256-gcm', this.#key(purpose), iv)
    cipher.setAAD(Buffer.from(context))
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
    return [VERSION, iv, body, cipher.getAuthTag()]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.')
  }

  /** The plaintext, or undefined when the value was sealed with another key or context. */
  open(purpose: SecretPurpose, sealed: string, context: string): string | undefined {
    const [version, iv, body, tag] = sealed.split('.')
    if (version !== VERSION || iv === undefined || body === undefined || tag === undefined) return undefined
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key(purpose), Buffer.from(iv, 'base64url'))
      decipher.setAAD(Buffer.from(context))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString(
        'utf8',
      )
    } catch {
      return undefined
    }
  }

  digest(purpose: SecretPurpose, value: string): string {
    return createHmac('sha256', this.#key(purpose)).update(value).digest('hex')
  }

  /** Constant-time check of a candidate against a stored digest. */
  matches(purpose: SecretPurpose, candidate: string, storedDigest: string): boolean {
    const left = Buffer.from(this.digest(purpose, candidate), 'hex')
    const right = Buffer.from(storedDigest, 'hex')
    return left.length === right.length && timingSafeEqual(left, right)
  }

  /** A value that identifies the key without revealing it, to detect processes started with another key. */
  fingerprint(): string {
    return createHmac('sha256', this.#master).update('cloudplane key fingerprint').digest('hex')
  }

  #key(purpose: SecretPurpose): Buffer {
    let key = this.#keys.get(purpose)
    if (key === undefined) {
      key = Buffer.from(hkdfSync('sha256', this.#master, Buffer.alloc(0), `cloudplane:${purpose}`, 32))
      this.#keys.set(purpose, key)
    }
    return key
  }
}

/** Constant-time comparison of two short strings (codes typed by a user). */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a)
  const right = Buffer.from(b)
  return left.length === right.length && timingSafeEqual(left, right)
}
