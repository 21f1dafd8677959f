import { redactedPath } from '../../../common/secret-paths.ts'

/**
 * Secrets never reach the journal: a body field whose name says it holds a token, a password, a
 * two-factor secret or code, a security answer, a phone code or an upload URL is replaced, at any
 * depth. Over-matching (a `country_code`) costs a little detail; under-matching would leak.
 */
const SECRET_FIELD =
  /token|pass(w|$)|secret|scratch|answer|upload_to|otp|(^|_)code$|^code|admin_key|authorization/i

/**
 * Fields that are secrets only inside a named parent (in lower case): a security question's
 * `response` is its answer. Maps, so that a key named like an object's own members (`constructor`)
 * finds nothing.
 */
const SECRET_IN = new Map([['security_questions', /^response$/i]])

/**
 * A field that SECRET_FIELD names but is none in its parent: the profile's referral code, which
 * its `url` beside it spells out anyway (and which every profile read would otherwise make the
 * journal's thread parse and write again).
 */
const PUBLIC_IN = new Map([['referrals', /^code$/i]])

export const REDACTED = '[redacted]'

export function redactValue(value: unknown, parent?: string): unknown {
  if (Array.isArray(value)) return value.map((item) => redactValue(item, parent))
  if (value === null || typeof value !== 'object') return value
  // As case-blind as the field names and the first look (SECRET_HINT).
  const named = parent?.toLowerCase()
  const scoped = named === undefined ? undefined : SECRET_IN.get(named)
  const open = named === undefined ? undefined : PUBLIC_IN.get(named)
  const out: Record<string, unknown> = {}
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    const secret = (SECRET_FIELD.test(key) && !open?.test(key)) || scoped?.test(key)
    out[key] = secret ? REDACTED : redactValue(inner, key)
  }
  return out
}

/** The longest body the journal keeps; longer ones are cut (they are for reading, not replay). */
const MAX_BODY = 64 * 1024

/**
 * Cheap first look, one native scan of the text: a body with no key holding one of these words
 * (and no escape in a key, which could spell one) holds no secret field, and is kept as it is.
 * A key in JSON text always follows `{` or `,`; inside a string those are followed by `\"` at
 * most, never a bare quote, so only real keys are looked at, not values such as "password".
 */
const SECRET_HINT =
  /[{,]\s*"[^"\\]*(?:\\|token|pass|secret|scratch|answer|upload_to|otp|admin_key|authorization|response|code(?<!"code)|code[^"]*"(?<!"referrals"\s*:\s*\{[^{}[\]]*"code"))/i

/** A body as the journal stores it: redacted JSON text, or a note for what is not JSON. */
export function journalBody(body: unknown): string | null {
  if (body === undefined || body === null || body === '') return null
  let text: string
  // A Buffer, or one that crossed to the writing thread (then a plain Uint8Array).
  if (body instanceof Uint8Array) {
    if (body.length === 0) return null
    text = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8')
  } else if (typeof body === 'string') text = body
  else text = JSON.stringify(body)
  const first = text.charCodeAt(0)
  const looksJson = first === 123 /* { */ || first === 91 /* [ */
  if (looksJson && !SECRET_HINT.test(text)) return cut(text)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return unreadBody(text)
  }
  try {
    return cut(JSON.stringify(redactValue(value)))
  } catch {
    // Nested deeper than the stack reaches (JSON may nest without end): its fields cannot all be
    // read for secrets, so only its size is kept, and the batch it is in is written all the same.
    return deepBody(text)
  }
}

const cut = (text: string): string => (text.length > MAX_BODY ? `${text.slice(0, MAX_BODY)}…[cut]` : text)

/**
 * The path as journalled, and whether it carries a secret (an upload URL): read as the router
 * reads it, so that `/%69mage-uploads/<secret>` is cut as the plain spelling is (secret-paths.ts).
 */
export function journalPath(path: string): { path: string; secret: boolean } {
  const redacted = redactedPath(path)
  return redacted === undefined ? { path, secret: false } : { path: redacted, secret: true }
}

/** Query parameters that carry a secret: those named as a body's secret fields are, and OAuth's `state`. */
const SECRET_QUERY = /^state$/i

/** The query string, minus parameters that carry secrets (OAuth codes, tokens in URLs). */
export function journalQuery(query: string): string {
  if (query === '') return ''
  const params = new URLSearchParams(query)
  for (const key of [...params.keys()]) {
    if (SECRET_FIELD.test(key) || SECRET_QUERY.test(key)) params.set(key, REDACTED)
  }
  return params.toString()
}

/**
 * What the journal keeps of a request body the API could not read as JSON: its size. Text that is
 * not JSON has no fields to redact by, and may hold a secret all the same.
 */
export const unreadBody = (text: string): string => `[${Buffer.byteLength(text)} bytes, not JSON]`

/** What the journal keeps of a JSON body nested too deep to be read for secrets: its size. */
const deepBody = (text: string): string => `[${Buffer.byteLength(text)} bytes, JSON nested too deep to read]`
