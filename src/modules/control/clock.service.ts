import { badRequest } from '../../common/errors.ts'
import { formatTimestamp, parseTimestamp } from '../../common/time.ts'
import { offsetOf, parseDuration, readStoredClock, writeStoredClock } from './clock-store.ts'
import type { ControlContext } from './control-context.ts'

export interface ClockView {
  /** What every time-based rule reads. */
  virtual: string
  real: string
  offset_seconds: number
  /** Whether the clock runs at real time. */
  real_time: boolean
}

export function clockView(ctx: ControlContext): ClockView {
  const offsetMs = offsetOf(ctx.clock)
  return {
    virtual: formatTimestamp(ctx.clock.now()),
    real: formatTimestamp(new Date()),
    offset_seconds: Math.round(offsetMs / 1000),
    real_time: Math.abs(offsetMs) < 1000,
  }
}

/**
 * The virtual time stays where every stored and wire timestamp can follow it: from 1970 on, and a
 * year short of 9999, for the dates reckoned from now (expiries, retention windows).
 */
const EARLIEST_MS = Date.UTC(1970, 0, 1)
const LATEST_MS = Date.UTC(9999, 0, 1)

/** A move the clock can make, checked before anything is stored: else a 400 on `field`. */
function offsetWithinRange(offsetMs: number, field: string): number {
  const at = Date.now() + offsetMs
  if (!(at >= EARLIEST_MS && at < LATEST_MS)) {
    throw badRequest('must keep the clock between 1970-01-01 and 9999-01-01', field)
  }
  return offsetMs
}

async function moveTo(ctx: ControlContext, offsetMs: number): Promise<ClockView> {
  await writeStoredClock(ctx.db, { offsetMs })
  await ctx.syncClock()
  // What became due by the new time happens before the answer: a test that advances 24 hours
  // sees the expired upload gone on its very next request.
  await ctx.runDueJobs()
  return clockView(ctx)
}

export async function advanceClock(ctx: ControlContext, duration: string): Promise<ClockView> {
  const ms = parseDuration(duration)
  if (ms === undefined) throw badRequest('must be a duration such as "24h", "10m", "1d12h" or "90s"', 'by')
  const stored = await readStoredClock(ctx.db)
  return moveTo(ctx, offsetWithinRange((stored?.offsetMs ?? offsetOf(ctx.clock)) + ms, 'by'))
}

export async function setClock(ctx: ControlContext, at: string): Promise<ClockView> {
  const timestamp = parseTimestamp(at)
  if (timestamp === undefined) throw badRequest('must be a date-time such as 2030-01-01T00:00:00', 'at')
  return moveTo(ctx, offsetWithinRange(Date.parse(`${timestamp}Z`) - Date.now(), 'at'))
}

export async function resumeClock(ctx: ControlContext): Promise<ClockView> {
  return moveTo(ctx, 0)
}
