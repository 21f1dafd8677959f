import type autocannon from 'autocannon'
import { addGoal, spreadOf } from '../goals.ts'
import { apiCall, CONNECTIONS, cpuSecondsOf, type RunningServer } from '../harness.ts'

/** How long the soak runs (BENCH_SOAK_SECONDS, default 180) in windows of BENCH_SOAK_WINDOW (30). */
const SOAK_SECONDS = Number(process.env.BENCH_SOAK_SECONDS ?? 180)
const WINDOW_SECONDS = Number(process.env.BENCH_SOAK_WINDOW ?? 30)

interface Window {
  rps: number
  requests: number
  non2xx: number
  /** Server CPU (node process, all threads) per request, µs. */
  cpuUs: number
  /** Events in the account at the end of the window. */
  events: number
  /** Answers by status code, as `200×n`. */
  statuses: string
}

/**
 * A mixed load held for minutes while the account's events grow: each connection updates its own
 * VPC (one `vpc_update` event per write) and reads what a console or poller reads (the events page,
 * newest first and by action, the VPC list, the profile, the regions). Every list must cost the same
 * however many events the writes have made, so the request rate and the CPU per request of the last
 * windows must match the first ones. Goal: the last third's rate at least 90% of the first third's,
 * and its CPU per request less than 20% more.
 */
export async function soakCase(server: RunningServer, token: string, engine: string): Promise<void> {
  const vpcs: number[] = []
  for (let i = 0; i < CONNECTIONS; i++) {
    vpcs.push((await apiCall(server, token, 'POST', '/v4/vpcs', { label: `soak-${i}`, region: 'us-iad' })).id)
  }
  const auth = { authorization: `Bearer ${token}` }
  let nextVpc = 0
  let writes = 0
  interface Ctx {
    vpc?: number
  }
  const sequence = [
    {
      method: 'PUT',
      headers: { ...auth, 'content-type': 'application/json' },
      setupRequest: (req: autocannon.Request, context: Ctx) => {
        context.vpc ??= vpcs[nextVpc++ % vpcs.length]
        return {
          ...req,
          path: `/v4/vpcs/${context.vpc}`,
          body: JSON.stringify({ description: `w${writes++}` }),
        }
      },
    },
    { method: 'GET', path: '/v4/account/events', headers: auth },
    {
      method: 'GET',
      path: '/v4/account/events',
      headers: { ...auth, 'x-filter': JSON.stringify({ action: 'vpc_update' }) },
    },
    { method: 'GET', path: '/v4/account/events?page=2', headers: auth },
    { method: 'GET', path: '/v4/vpcs', headers: auth },
    { method: 'GET', path: '/v4/profile', headers: auth },
    { method: 'GET', path: '/v4/regions' },
  ] as autocannon.Request[]

  const { default: run } = await import('autocannon')
  const pid = server.child.pid as number
  const loadFor = async (seconds: number) => {
    const before = cpuSecondsOf(`/proc/${pid}/stat`)
    const result = await run({
      url: server.baseUrl,
      requests: sequence,
      connections: CONNECTIONS,
      duration: seconds,
    })
    const used = cpuSecondsOf(`/proc/${pid}/stat`) - before
    return { result, used }
  }
  await loadFor(5)
  const windows: Window[] = []
  const count = Math.max(3, Math.round(SOAK_SECONDS / WINDOW_SECONDS))
  console.log(`\nSoak, ${engine}: ${count} windows of ${WINDOW_SECONDS} s, ${CONNECTIONS} connections`)
  console.log('| window | req/s | non-2xx | server CPU µs per request | events in the account |')
  console.log('|---|---|---|---|---|')
  for (let i = 0; i < count; i++) {
    const { result, used } = await loadFor(WINDOW_SECONDS)
    const events = (await apiCall(server, token, 'GET', '/v4/account/events?page_size=25')).results
    const w: Window = {
      rps: result.requests.average,
      requests: result.requests.total,
      non2xx: result.non2xx,
      cpuUs: (used * 1e6) / Math.max(1, result.requests.total),
      events,
      statuses: Object.entries(result.statusCodeStats as Record<string, { count: number }>)
        .map(([code, { count }]) => `${code}×${count}`)
        .join(' '),
    }
    windows.push(w)
    console.log(`| ${i + 1} | ${w.rps.toFixed(0)} | ${w.non2xx} | ${w.cpuUs.toFixed(1)} | ${w.events} |`)
  }
  const third = Math.max(1, Math.floor(count / 3))
  const first = windows.slice(0, third)
  const last = windows.slice(-third)
  // Each later window against each early one: the spread shows how steady the machine was.
  const pairs = (f: (a: Window, b: Window) => number) => last.flatMap((b) => first.map((a) => f(a, b)))
  addGoal({
    name: `Soak (${engine}), request rate of the last third over the first`,
    measure: `${count} windows of ${WINDOW_SECONDS} s, events ${windows[0]?.events} → ${windows.at(-1)?.events}`,
    value: spreadOf(pairs((a, b) => b.rps / a.rps)),
    kind: 'at least',
    target: 0.9,
    unit: 'times',
  })
  addGoal({
    name: `Soak (${engine}), CPU per request growth, last third over the first`,
    measure: 'server CPU per request',
    value: spreadOf(pairs((a, b) => b.cpuUs / a.cpuUs - 1)),
    kind: 'below',
    target: 0.2,
    unit: 'percent',
  })
  if (windows.some((w) => w.non2xx > 0)) {
    throw new Error(`the soak had non-2xx answers: ${windows.map((w) => w.statuses).join('; ')}`)
  }
}
