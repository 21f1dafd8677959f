import { addSeconds } from '../common/time.ts'
import { WORK_START_DELAY_SECONDS } from './work-durations.ts'

const secondsBetween = (from: string, to: string) => (Date.parse(`${to}Z`) - Date.parse(`${from}Z`)) / 1000

export type WorkStep =
  | { done: false; percentComplete: number; timeRemaining: number; nextStep: string }
  | { done: true; duration: number; endedAt: string }

/**
 * Where timed work scheduled at `scheduled` for `seconds` stands at `now`: it starts
 * WORK_START_DELAY_SECONDS after the request, then `percent_complete` rises and `time_remaining`
 * falls until it is done. While it runs, `nextStep` is when to look again (a quarter of the work
 * on, or its end), so a poller sees the numbers move. Once done, `endedAt` is when it ended.
 */
export function workStep(scheduled: string, seconds: number, now: string): WorkStep {
  const startAt = addSeconds(scheduled, WORK_START_DELAY_SECONDS)
  const endAt = addSeconds(startAt, seconds)
  // Done at its end, however late the job runs (a clock moved past it): what follows starts there.
  if (now >= endAt)
    return { done: true, duration: Math.round(secondsBetween(scheduled, endAt)), endedAt: endAt }
  const elapsed = Math.max(0, secondsBetween(startAt, now))
  const step = addSeconds(now, Math.max(1, Math.ceil(seconds / 4)))
  return {
    done: false,
    percentComplete: Math.min(99, Math.floor((elapsed / seconds) * 100)),
    timeRemaining: Math.ceil(secondsBetween(now, endAt)),
    nextStep: step < endAt ? step : endAt,
  }
}
