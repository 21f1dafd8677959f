import { readFileSync } from 'node:fs'
import { addGoal } from '../goals.ts'
import {
  type BenchRequest,
  type CaseResult,
  load,
  measure,
  type RunningServer,
  startCloudplane,
} from '../harness.ts'
import { BENCH_ADMIN_KEY } from './control.ts'

/** CPU seconds used so far by a server's main thread, and by the whole process (its worker too). */
function cpuSeconds(pid: number): { main: number; all: number } {
  const ticks = (file: string) => {
    const fields = readFileSync(file, 'utf8').split(') ')[1]?.split(' ') ?? []
    return (Number(fields[11]) + Number(fields[12])) / 100
  }
  return { main: ticks(`/proc/${pid}/task/${pid}/stat`), all: ticks(`/proc/${pid}/stat`) }
}

/**
 * Server CPU per request, steadier than requests/s on a busy machine: microseconds of the main
 * thread (what limits the request rate) and of the whole process, over a few seconds of load.
 */
async function cpuPerRequest(server: RunningServer, request: BenchRequest) {
  await load(server.baseUrl, request, { duration: 1 })
  const pid = server.child.pid as number
  const before = cpuSeconds(pid)
  const result = await load(server.baseUrl, request, { duration: 4 })
  const after = cpuSeconds(pid)
  const per = (s: number) => (s * 1e6) / Math.max(1, result.requests)
  return { main: per(after.main - before.main), all: per(after.all - before.all) }
}

/**
 * The request journal's cost on the hot path: the same authenticated read against the server
 * (journal on, the default with the control API) and against a second process on the same
 * database with CLOUDPLANE_JOURNAL=off, alternating. Goal: at least 90% of the rate without it.
 */
export async function journalCases(
  server: RunningServer,
  token: string,
  env: Record<string, string>,
  logDir: string,
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
    for (const path of ['/v4/profile', `/v4/vpcs/${id}`]) {
      const request: BenchRequest = { method: 'GET', path, headers: auth }
      results.push(
        await measure(`GET ${path}, journal on vs off`, server.baseUrl, request, {
          goal: 0.9,
          reference: { name: 'journal off', server: off, request },
        }),
      )
      const withJournal = await cpuPerRequest(server, request)
      const without = await cpuPerRequest(off, request)
      console.log(
        `  GET ${path}: CPU per request, main thread ${withJournal.main.toFixed(1)} µs with the journal vs ${without.main.toFixed(1)} µs without; whole process (journal thread included) ${withJournal.all.toFixed(1)} vs ${without.all.toFixed(1)} µs`,
      )
      const ratio = without.main / Math.max(1e-9, withJournal.main)
      addGoal({
        name: `GET ${path}, main-thread CPU without / with the journal`,
        measure: 'CPU per request',
        value: { median: ratio, min: ratio, max: ratio, n: 1 },
        kind: 'at least',
        target: 0.9,
        unit: 'times',
      })
    }
  } finally {
    await off.stop()
  }
  return results
}
