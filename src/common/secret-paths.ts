/**
 * Path segments after which a URL carries a secret: the upload URLs (`/image-uploads/<secret>`).
 * Matched on the normalised path, whatever route (or none) answered the request: a CORS preflight,
 * a 404, `//Image-Uploads/…` or `%69mage-uploads` reach the same handler, or none, with the same
 * secret in them.
 */
export const SECRET_BEARING_SEGMENTS = ['image-uploads']

/**
 * Percent-decoded, lower case, `\` as `/`, no repeated slashes. A path with a malformed escape
 * has its well-formed ones decoded one byte each: a bad escape after the secret must not keep
 * `%69mage-uploads` from being read as what it spells.
 */
export function normalisePath(path: string): string {
  let decoded: string
  try {
    decoded = decodeURIComponent(path)
  } catch {
    decoded = path.replace(/%([0-9a-f]{2})/gi, (_, hex: string) =>
      String.fromCharCode(Number.parseInt(hex, 16)),
    )
  }
  return decoded
    .toLowerCase()
    .replace(/\\/g, '/')
    .replace(/\/{2,}/g, '/')
}

/** A path that may spell a secret-bearing segment some way: an escape, a backslash, or the word. */
export const MAY_HOLD_SECRET = new RegExp(`[%\\\\]|${SECRET_BEARING_SEGMENTS.join('|')}`, 'i')

/** The path as logged or journalled: cut after a secret-bearing segment; undefined when it has none. */
export function redactedPath(path: string): string | undefined {
  // Most paths hold none of what normalising looks at: they are logged as they are.
  if (!MAY_HOLD_SECRET.test(path)) return undefined
  const normalised = normalisePath(path)
  for (const segment of SECRET_BEARING_SEGMENTS) {
    const at = normalised.indexOf(segment)
    if (at !== -1) return `${normalised.slice(0, at + segment.length)}/[redacted]`
  }
  return undefined
}
