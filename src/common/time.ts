/**
 * One clock for the whole server. Tests (and an emulator feature) move it; nothing else reads
 * Date.now() for API-visible time.
 */
export interface Clock {
  now(): Date
}

export class AdjustableClock implements Clock {
  #offsetMs = 0

  now(): Date {
    return new Date(Date.now() + this.#offsetMs)
  }

  /** Moves the clock forward (or back, with a negative value). */
  advance(ms: number): void {
    this.#offsetMs += ms
  }

  set(at: Date): void {
    this.#offsetMs = at.getTime() - Date.now()
  }

  reset(): void {
    this.#offsetMs = 0
  }
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})$/
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/

/** The wire format of every time: UTC `YYYY-MM-DDTHH:MM:SS`, no zone, no fractions. */
export function formatTimestamp(date: Date): string {
  return date.toISOString().slice(0, 19)
}

export function nowTimestamp(clock: Clock): string {
  return formatTimestamp(clock.now())
}

export function addSeconds(timestamp: string, seconds: number): string {
  return formatTimestamp(new Date(Date.parse(`${timestamp}Z`) + seconds * 1000))
}

/**
 * Parses a client-supplied date-time. Accepts the wire format, a date alone, and ISO 8601 with a
 * zone or fractions (normalised to UTC seconds). Returns undefined when the value is not a real
 * date-time, so callers can answer 400 rather than store something PostgreSQL would reject.
 */
export function parseTimestamp(value: string): string | undefined {
  if (DATE_ONLY.test(value)) return parseTimestamp(`${value}T00:00:00`)
  const m = TIMESTAMP.exec(value)
  if (m) {
    const ms = Date.parse(`${value}Z`)
    // Year 0 does not exist in a timestamp the databases hold (PostgreSQL refuses it).
    if (Number.isNaN(ms) || new Date(ms).getUTCFullYear() < 1) return undefined
    // Date.parse rolls over impossible dates (Feb 30); refuse them instead.
    return formatTimestamp(new Date(ms)) === value ? value : undefined
  }
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value)) return undefined
  const ms = Date.parse(value)
  if (Number.isNaN(ms)) return undefined
  const year = new Date(ms).getUTCFullYear()
  if (year < 1 || year > 9999) return undefined
  return formatTimestamp(new Date(ms))
}
