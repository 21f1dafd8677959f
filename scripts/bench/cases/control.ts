import type { Db } from '../../../src/db/connect.ts'
import type { RunningServer } from '../harness.ts'
import { seedAccounts, seedEvents, settle } from '../seed.ts'

/** The admin key the benchmark's servers start with. */
export const BENCH_ADMIN_KEY = 'bench-admin-key-0123456789abcdef'

export interface ResetTiming {
  rows: number
  runs: number
  medianMs: number
  maxMs: number
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
  times.sort((a, b) => a - b)
  return {
    rows,
    runs,
    medianMs: times[Math.floor(times.length / 2)] as number,
    maxMs: times.at(-1) as number,
    goalMs,
  }
}

/** One line per engine; returns whether the median met the goal. */
export function printReset(title: string, timing: ResetTiming): boolean {
  const met = timing.goalMs === undefined || timing.medianMs < timing.goalMs
  const goal = timing.goalMs === undefined ? '' : ` (goal < ${timing.goalMs} ms) ${met ? 'ok' : 'MISSED'}`
  console.log(`\n${title}`)
  console.log(
    `  reset of ${timing.rows} rows: median ${timing.medianMs.toFixed(1)} ms, max ${timing.maxMs.toFixed(1)} ms over ${timing.runs} runs${goal}`,
  )
  return met
}
