/**
 * Names already found to be zones. Asking ICU builds a date formatter (about 0.1 ms, a third of a
 * whole profile update), and clients send the same few names again and again. Bounded, since ICU
 * also accepts families of made-up names (`GMT+5`, `Etc/GMT-3`); past the bound a name is asked.
 */
const known = new Set<string>()
const KNOWN_MAX = 4096

/**
 * Whether a name is a real IANA time zone (canonical names and links such as `US/Eastern`), using
 * the ICU data Node ships. Offsets such as `+01:00`, which ICU also accepts, are not zone names.
 */
export function isTimeZone(name: string): boolean {
  if (known.has(name)) return true
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(name)) return false
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: name })
  } catch {
    return false
  }
  if (known.size < KNOWN_MAX) known.add(name)
  return true
}
