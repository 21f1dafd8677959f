import type { AdjustableClock } from '../../common/time.ts'
import { changeCounter, type Db } from '../../db/connect.ts'
import { getMeta, setMeta } from '../../db/meta.repository.ts'

/**
 * The virtual clock, stored in the `meta` table so that every process on one database tells the
 * same time: an offset from real time. No row means real time, and then a process leaves its
 * in-memory clock alone (tests move that one directly).
 */
export interface StoredClock {
  offsetMs: number
}

export async function readStoredClock(db: Db): Promise<StoredClock | undefined> {
  const text = await getMeta(db, 'clock')
  if (text === undefined) return undefined
  const parsed = JSON.parse(text) as Partial<StoredClock>
  return { offsetMs: Number(parsed.offsetMs ?? 0) }
}

export async function writeStoredClock(db: Db, clock: StoredClock): Promise<void> {
  await setMeta(db, 'clock', JSON.stringify({ offsetMs: clock.offsetMs }))
}

/** The offset an in-memory clock runs at, to the millisecond. */
export function offsetOf(clock: AdjustableClock): number {
  return clock.now().getTime() - Date.now()
}

export function applyStoredClock(clock: AdjustableClock, stored: StoredClock): void {
  clock.reset()
  clock.advance(stored.offsetMs)
}

const CLOCK_COUNTER = 'clock'

/**
 * Brings a process's clock in line with the stored one. On SQLite a change counter (moved by a
 * trigger on the `meta` row, whichever process writes it) says whether there is anything to read,
 * so a request pays one prepared single-row read; on PostgreSQL the row is read each time, one
 * primary-key lookup (the control API, and so this, is off there unless asked for).
 */
export class ClockSync {
  readonly #db: Db
  readonly #clock: AdjustableClock
  #seen: number | undefined
  #chain: Promise<void> = Promise.resolve()

  constructor(db: Db, clock: AdjustableClock) {
    this.#db = db
    this.#clock = clock
  }

  /**
   * One sync at a time, in the order asked: a read that started before a move must not land
   * after the read that saw it (the clock would jump back).
   */
  sync(counters?: Promise<ReadonlyMap<string, number>>): Promise<void> {
    const next = this.#chain.then(() => this.#syncOnce(counters))
    this.#chain = next.catch(() => {})
    return next
  }

  /** `counters`: a request's change counters (plugins/db.ts), read after it started. */
  async #syncOnce(counters?: Promise<ReadonlyMap<string, number>>): Promise<void> {
    const stamp =
      counters === undefined ? changeCounter(this.#db, CLOCK_COUNTER) : (await counters).get(CLOCK_COUNTER)
    if (stamp !== undefined && stamp === this.#seen) return
    const stored = await readStoredClock(this.#db)
    this.#seen = stamp
    if (stored !== undefined) applyStoredClock(this.#clock, stored)
  }
}

const UNITS: Record<string, number> = {
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
  w: 604_800_000,
}

/** `"24h"`, `"10m"`, `"1d12h"`, `"90s"`, `"500ms"` in milliseconds; undefined if not a duration. */
export function parseDuration(text: string): number | undefined {
  const trimmed = text.trim()
  if (!/^(\d+(?:\.\d+)?(?:ms|s|m|h|d|w))+$/.test(trimmed)) return undefined
  let total = 0
  for (const m of trimmed.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d|w)/g)) {
    total += Number(m[1]) * (UNITS[m[2] as string] as number)
  }
  return Number.isFinite(total) && total > 0 ? Math.round(total) : undefined
}
