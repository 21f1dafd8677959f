import type { Db } from '../../../src/db/connect.ts'
import { addGoal, spreadOf } from '../goals.ts'
import type { RunningServer } from '../harness.ts'
import { seedAccounts, seedEvents, settle } from '../seed.ts'

/** The admin key the benchmark's servers start with. */
export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef'

export interface ResetTiming {
  rows: number
  /** Every run's time, in ms. */
  times: number[]
  /** The goal is for SQLite, where people test; PostgreSQL's figure is shown without one. */
  goalMs: number | undefined
}

/**
 * `POST /_cloudplane/reset` on a state of `rows` rows (accounts and their events, made in bulk),
 * timed from the client: the round trip over loopback, all of the reset inside it. Each run starts
 * from a freshly filled state.
 */
export async function resetCase(
  server: RunningServer,
  db: Db,
  goalMs: number | undefined,
  rows = 10_000,
  runs = 10,
): Promise<ResetTiming> {
  const times: number[] = []
  for (let i = 0; i < runs; i++) {
    const accounts = Math.floor(rows / 10)
    const first = await seedAccounts(db, accounts, `bench-${i}`)
    await seedEvents(db, { count: rows - accounts, firstAccount: first, accounts })
    await settle(db)
    const started = performance.now()
    const res = await fetch(`${server.baseUrl}/_cloudplane/reset`, {
      method: 'POST',
      headers: { 'x-cloudplane-admin-key': BENCH_ADMIN_KEY },
    })
    times.push(performance.now() - started)
    if (res.status !== 200) throw new Error(`reset answered ${res.status}: ${await res.text()}`)
  }
  return { rows, times, goalMs }
}

/**
 * One line per engine; SQLite's goal joins the others at the end of the run, as met or missed
 * (a missed goal is not a group that stopped).
 */
export function printReset(title: string, timing: ResetTiming): void {
  const spread = spreadOf(timing.times)
  const met = timing.goalMs === undefined || spread.median < timing.goalMs
  const goal = timing.goalMs === undefined ? '' : ` (goal < ${timing.goalMs} ms) ${met ? 'ok' : 'MISSED'}`
  console.log(`\n${title}`)
  console.log(
    `  reset of ${timing.rows} rows: median ${spread.median.toFixed(1)} ms, max ${spread.max.toFixed(1)} ms over ${spread.n} runs${goal}`,
  )
  if (timing.goalMs === undefined) return
  addGoal({
    name: `POST /_cloudplane/reset, ${timing.rows.toLocaleString('en-US')} rows (SQLite)`,
    measure: 'ms, client round trip',
    value: spread,
    kind: 'below',
    target: timing.goalMs,
    unit: 'ms',
  })
}
