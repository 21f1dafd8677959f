/**
 * Whether a name is a real IANA time zone (canonical names and links such as `US/Eastern`), using
 * the ICU data Node ships. Offsets such as `+01:00`, which ICU also accepts, are not zone names.
 */
export function isTimeZone(name: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
    return true
  } catch {
    return false
  }
}
