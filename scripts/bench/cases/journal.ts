import { addGoal, spreadOf } from '../goals.ts'
import {
  type BenchRequest,
  type CaseResult,
  cpuSecondsOf,
  load,
  measure,
  ROUNDS,
  type RunningServer,
  startCloudplane,
} from '../harness.ts'
import { BENCH_ADMIN_KEY } from './control.ts'

/** CPU seconds used so far by a server's main thread, and by the whole process (its worker too). */
function cpuSeconds(pid: number): { main: number; all: number } {
  return { main: cpuSecondsOf(`/proc/${pid}/task/${pid}/stat`), all: cpuSecondsOf(`/proc/${pid}/stat`) }
}

/** Microseconds of server CPU per request over one load run: the main thread, and the whole process. */
async function cpuPerRequest(server: RunningServer, request: BenchRequest) {
  const pid = server.child.pid as number
  const before = cpuSeconds(pid)
  const result = await load(server.baseUrl, request, { duration: 3 })
  const after = cpuSeconds(pid)
  const per = (s: number) => (s * 1e6) / Math.max(1, result.requests)
  return { main: per(after.main - before.main), all: per(after.all - before.all) }
}

const fmt = (s: { median: number; min: number; max: number }) =>
  `${s.median.toFixed(1)} (${s.min.toFixed(1)}–${s.max.toFixed(1)})`

/**
 * Server CPU per request, journal on and off, in alternating rounds (a busy machine slows both
 * sides of a round alike): steadier than requests/s, and it shows what the journal costs the main
 * thread, which limits the request rate, apart from its writing thread.
 */
async function cpuRounds(on: RunningServer, off: RunningServer, request: BenchRequest, label: string) {
  await load(on.baseUrl, request, { duration: 1 })
  await load(off.baseUrl, request, { duration: 1 })
  const withJournal: Array<{ main: number; all: number }> = []
  const without: Array<{ main: number; all: number }> = []
  for (let round = 0; round < ROUNDS; round++) {
    if (round % 2 === 0) {
      withJournal.push(await cpuPerRequest(on, request))
      without.push(await cpuPerRequest(off, request))
    } else {
      without.push(await cpuPerRequest(off, request))
      withJournal.push(await cpuPerRequest(on, request))
    }
  }
  const onMain = spreadOf(withJournal.map((c) => c.main))
  const offMain = spreadOf(without.map((c) => c.main))
  const onAll = spreadOf(withJournal.map((c) => c.all))
  const offAll = spreadOf(without.map((c) => c.all))
  console.log(
    `  ${label}: CPU µs per request, median (min–max) of ${ROUNDS} rounds: main thread ${fmt(onMain)} with the journal vs ${fmt(offMain)} without; whole process (journal thread included) ${fmt(onAll)} vs ${fmt(offAll)}`,
  )
  addGoal({
    name: `${label}, main-thread CPU without / with the journal`,
    measure: 'CPU per request',
    value: spreadOf(without.map((c, i) => c.main / Math.max(1e-9, withJournal[i]?.main ?? Number.NaN))),
    kind: 'at least',
    target: 0.9,
    unit: 'times',
  })
}

/**
 * The request journal's cost on the hot path: the same requests against the server (journal on,
 * the default with the control API) and against a second process on the same database with
 * CLOUDPLANE_JOURNAL=off, alternating. Three reads (one a catalogue, ~15 KB from its cache) and a
 * write with a request body (the same profile settings again and again, so the state does not
 * grow with the load). Goal: at least 90% of the rate without it.
 */
export async function journalCases(
  server: RunningServer,
  token: string,
  env: Record<string, string>,
  logDir: string,
  engine: string,
): Promise<CaseResult[]> {
  const off = await startCloudplane(
    { ...env, CLOUDPLANE_ADMIN_KEY: BENCH_ADMIN_KEY, CLOUDPLANE_JOURNAL: 'off' },
    logDir,
  )
  const auth = { authorization: `Bearer ${token}` }
  const results: CaseResult[] = []
  try {
    const vpc = await fetch(`${server.baseUrl}/v4/vpcs`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'journal-bench', region: 'us-iad' }),
    })
    const { id } = (await vpc.json()) as { id: number }
    const requests: Array<[string, BenchRequest]> = [
      ['GET /v4/profile', { method: 'GET', path: '/v4/profile', headers: auth }],
      [`GET /v4/vpcs/${id}`, { method: 'GET', path: `/v4/vpcs/${id}`, headers: auth }],
      // A catalogue: a large answer, the same cached bytes every time.
      ['GET /v4/regions', { method: 'GET', path: '/v4/regions' }],
      [
        'PUT /v4/profile',
        {
          method: 'PUT',
          path: '/v4/profile',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ timezone: 'US/Eastern', email_notifications: true }),
        },
      ],
    ]
    // Named apart per engine, and not `(engine)`: the two engines' rates are not compared here.
    const suffix = engine === 'SQLite' ? '' : `, ${engine}`
    for (const [path, request] of requests) {
      const label = `${path}${suffix}`
      results.push(
        await measure(`${label}, journal on vs off`, server.baseUrl, request, {
          goal: 0.9,
          reference: { name: 'journal off', server: off, request },
        }),
      )
      await cpuRounds(server, off, request, label)
    }
  } finally {
    await off.stop()
  }
  return results
}
