import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { openSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { addGoal, formatSpread, type Goal, type Spread, spreadOf } from './goals.ts'

/**
 * The benchmark harness: cloudplane runs as a real server process (the default configuration,
 * request logging on), every case is measured with autocannon from this process, and next to it a
 * bare `node:http` server answering with the very same response bytes gives the case's ceiling.
 */

/** BENCH_CLI runs another checkout's server (an A/B comparison of two versions on this harness). */
const CLI = process.env.BENCH_CLI ?? fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const CEILING = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url))

/** Seconds of each measured sample (one side of one round). */
export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 2)
/** Rounds per case: each round measures the reference and the server back to back, alternating which goes first. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10)

export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

/** CPU seconds used so far, from a /proc stat file (a process's, or one thread's under task/). */
export function cpuSecondsOf(statFile: string): number {
  const fields = readFileSync(statFile, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}

export interface RunningServer {
  baseUrl: string
  child: ChildProcess
  stop(): Promise<void>
}

/** One API call during a case's setup; anything but 200 stops the case with the answer. */
export async function apiCall<T = { id: number; uid: number; results: number }>(
  server: RunningServer,
  token: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  if (res.status !== 200) throw new Error(`${method} ${path} answered ${res.status}: ${text}`)
  return JSON.parse(text) as T
}

/** `cloudplane serve` in a child process; its log goes to a file, as an operator would keep it. */
export async function startCloudplane(env: Record<string, string>, logDir: string): Promise<RunningServer> {
  const port = await freePort()
  const log = openSync(join(logDir, `cloudplane-${port}.log`), 'a')
  const child = spawn(process.execPath, [CLI, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
  })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(`${baseUrl}/readyz`, child)
  return { baseUrl, child, stop: () => stopChild(child) }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  child.kill('SIGTERM')
  await once(child, 'exit')
}

export async function waitFor(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`process exited with ${child.exitCode}`)
    try {
      if ((await fetch(url)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50))
  }
  throw new Error(`${url} did not answer`)
}

export interface CapturedResponse {
  status: number
  headers: Array<[string, string]>
  body: Buffer
}

const HOP_BY_HOP = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** One real response of cloudplane, to be replayed byte for byte by the ceiling server. */
export async function capture(baseUrl: string, request: BenchRequest): Promise<CapturedResponse> {
  const res = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body !== undefined && { body: request.body }),
  })
  const body = Buffer.from(await res.arrayBuffer())
  if (res.status >= 300) throw new Error(`${request.method} ${request.path} answered ${res.status}: ${body}`)
  const headers = [...res.headers.entries()].filter(([name]) => !HOP_BY_HOP.has(name))
  return { status: res.status, headers, body }
}

/** A bare node:http server in its own process, answering every request with the captured bytes. */
export async function startCeiling(response: CapturedResponse): Promise<RunningServer> {
  const port = await freePort()
  const child = spawn(process.execPath, [CEILING, String(port)], { stdio: ['pipe', 'inherit', 'inherit'] })
  child.stdin?.end(
    JSON.stringify({
      status: response.status,
      headers: response.headers,
      body: response.body.toString('base64'),
    }),
  )
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(`${baseUrl}/__ready`, child)
  return { baseUrl, child, stop: () => stopChild(child) }
}

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  headers?: Record<string, string>
  body?: string
}

export interface LoadResult {
  rps: number
  p50: number
  p99: number
  requests: number
  non2xx: number
  errors: number
}

/**
 * Load with autocannon. `sequence` (optional) replaces the single request with a cycle, e.g.
 * create then delete, each request able to use the previous response.
 */
export async function load(
  baseUrl: string,
  request: BenchRequest,
  options: { duration?: number; connections?: number; sequence?: autocannon.Request[] } = {},
): Promise<LoadResult> {
  const result = await autocannon({
    url: `${baseUrl}${request.path}`,
    method: request.method,
    headers: request.headers ?? {},
    ...(request.body !== undefined && { body: request.body }),
    ...(options.sequence && { requests: options.sequence }),
    connections: options.connections ?? CONNECTIONS,
    duration: options.duration ?? DURATION_SECONDS,
  })
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  }
}

export interface Sample {
  server: LoadResult
  reference: LoadResult
  /** server req/s over reference req/s, both taken in this round. */
  ratio: number
}

export interface CaseResult {
  name: string
  /** What the server is compared with: its ceiling, or another server (Prism). */
  referenceName: string
  /** One per round; undefined where a sample failed twice. */
  rounds: Array<Sample | undefined>
  ratio: Spread
  serverRps: Spread
  referenceRps: Spread
  p50: Spread
  p99: Spread
  /** Failed samples that were retried, and rounds lost, as text for the report. */
  notes: string[]
  goal?: Goal
}

/**
 * One sample with one retry: a dropped connection, an error or a non-2xx answer fails it; a
 * second failure gives no figure for the round. Never throws.
 */
async function sampleOnce(label: string, run: () => Promise<LoadResult>, notes: string[]) {
  for (let attempt = 1; attempt <= 2; attempt++) {
    try {
      const result = await run()
      if (result.non2xx === 0 && result.errors === 0 && result.requests > 0) {
        if (attempt > 1) notes.push(`${label}: retried, ok`)
        return result
      }
      notes.push(`${label} try ${attempt}: ${result.non2xx} non-2xx, ${result.errors} errors`)
    } catch (error) {
      notes.push(`${label} try ${attempt}: ${describeError(error)}`)
    }
  }
  return undefined
}

/** The message with its cause (fetch's "fetch failed" says nothing without it). */
function describeError(error: unknown): string {
  const e = error as Error & { cause?: { message?: string; code?: string } }
  const cause = e.cause ? ` (${e.cause.code ?? ''} ${e.cause.message ?? ''})`.replace('( ', '(') : ''
  return `${e.message}${cause}`
}

/** The response the ceiling replays, asked for twice at most. */
async function captureWithRetry(baseUrl: string, request: BenchRequest, notes: string[]) {
  try {
    return await capture(baseUrl, request)
  } catch (error) {
    notes.push(`capture try 1: ${describeError(error)}`)
    return capture(baseUrl, request)
  }
}

export interface MeasureOptions {
  /** Registers a goal on the median ratio (at least this). */
  goal?: number
  sequence?: autocannon.Request[]
  ceilingResponse?: CapturedResponse
  /** Restores the server's state before each server sample (a write loop cut short leaves its last write). */
  reset?: () => Promise<void>
  /** Compare with this running server (e.g. Prism) instead of a ceiling replaying the same bytes. */
  reference?: { name: string; server: RunningServer; request: BenchRequest }
}

/**
 * Measures a case against its reference in ROUNDS rounds: each round loads the reference and the
 * server one after the other (never at once: they would share the cores), the first of the two
 * alternating, so that a burst of load from elsewhere on the machine lands on both sides over the
 * rounds. The figure is the median of the per-round ratios, with its range.
 */
export async function measure(
  name: string,
  baseUrl: string,
  request: BenchRequest,
  options: MeasureOptions = {},
): Promise<CaseResult> {
  const notes: string[] = []
  let reference: RunningServer | undefined
  let referenceRequest = request
  let ownsReference = false
  try {
    if (options.reference) {
      reference = options.reference.server
      referenceRequest = options.reference.request
    } else {
      const response = options.ceilingResponse ?? (await captureWithRetry(baseUrl, request, notes))
      reference = await startCeiling(response)
      ownsReference = true
    }
    const ref = reference
    const runServer = async () => {
      await options.reset?.()
      return load(baseUrl, request, options.sequence ? { sequence: options.sequence } : {})
    }
    const runReference = () => load(ref.baseUrl, referenceRequest)
    await sampleOnce('warm-up reference', () => load(ref.baseUrl, referenceRequest, { duration: 1 }), notes)
    await options.reset?.()
    await sampleOnce(
      'warm-up server',
      () => load(baseUrl, request, { duration: 1, ...(options.sequence && { sequence: options.sequence }) }),
      notes,
    )
    const rounds: Array<Sample | undefined> = []
    for (let round = 0; round < ROUNDS; round++) {
      let server: LoadResult | undefined
      let refResult: LoadResult | undefined
      if (round % 2 === 0) {
        refResult = await sampleOnce(`round ${round + 1} reference`, runReference, notes)
        server = await sampleOnce(`round ${round + 1} server`, runServer, notes)
      } else {
        server = await sampleOnce(`round ${round + 1} server`, runServer, notes)
        refResult = await sampleOnce(`round ${round + 1} reference`, runReference, notes)
      }
      rounds.push(
        server && refResult ? { server, reference: refResult, ratio: server.rps / refResult.rps } : undefined,
      )
    }
    return summarise(name, options.reference?.name ?? 'ceiling', rounds, notes, options.goal)
  } catch (error) {
    notes.push(`case failed: ${describeError(error)}`)
    return summarise(name, options.reference?.name ?? 'ceiling', [], notes, options.goal)
  } finally {
    if (ownsReference) await reference?.stop()
  }
}

function summarise(
  name: string,
  referenceName: string,
  rounds: Array<Sample | undefined>,
  notes: string[],
  goal: number | undefined,
): CaseResult {
  const ok = rounds.filter((r): r is Sample => r !== undefined)
  const lost = rounds.length - ok.length
  if (lost > 0) notes.push(`${lost} of ${rounds.length} rounds without a figure`)
  const result: CaseResult = {
    name,
    referenceName,
    rounds,
    ratio: spreadOf(ok.map((r) => r.ratio)),
    serverRps: spreadOf(ok.map((r) => r.server.rps)),
    referenceRps: spreadOf(ok.map((r) => r.reference.rps)),
    p50: spreadOf(ok.map((r) => r.server.p50)),
    p99: spreadOf(ok.map((r) => r.server.p99)),
    notes,
  }
  if (goal !== undefined) {
    result.goal = addGoal({
      name,
      measure: referenceName === 'ceiling' ? 'ratio to ceiling' : `req/s over ${referenceName}`,
      value: result.ratio,
      kind: 'at least',
      target: goal,
      unit: referenceName === 'ceiling' ? 'percent' : 'times',
    })
  }
  return result
}

/** Per-round quotients of two cases' ratios (rounds paired by index). */
function pairedQuotients(top: CaseResult, bottom: CaseResult): number[] {
  const values: number[] = []
  for (let i = 0; i < Math.min(top.rounds.length, bottom.rounds.length); i++) {
    const a = top.rounds[i]
    const b = bottom.rounds[i]
    if (a && b) values.push(a.ratio / b.ratio)
  }
  return values
}

/**
 * Cost growth from the small table to the large one, from the ratios to each case's own ceiling
 * (so the machine's load at either time cancels out): how much more each request costs.
 */
export function growth(small: CaseResult, large: CaseResult, max = 0.2): Goal {
  return addGoal({
    name: large.name,
    measure: `cost growth vs ${small.name}`,
    value: spreadOf(pairedQuotients(small, large).map((q) => q - 1)),
    kind: 'below',
    target: max,
    unit: 'percent',
  })
}

/** PostgreSQL's ratio to its ceiling over SQLite's for the same case, in the same run. */
export function engineGoal(name: string, sqlite: CaseResult, postgres: CaseResult, min = 0.5): Goal {
  return addGoal({
    name,
    measure: 'PostgreSQL / SQLite (ratios to ceiling)',
    value: spreadOf(pairedQuotients(postgres, sqlite)),
    kind: 'at least',
    target: min,
    unit: 'percent',
  })
}

const num = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : 'n/a')
const ms = (v: number) => (Number.isFinite(v) ? v.toFixed(1) : 'n/a')

export function printTable(title: string, results: CaseResult[]): string {
  const header = `| case | req/s | p50 ms | p99 ms | reference req/s | ratio, median (min–max, rounds) | goal | notes |`
  const lines = [`### ${title}`, '', header, '|---|---|---|---|---|---|---|---|']
  for (const r of results) {
    const goal = r.goal
      ? `${r.ratio.median >= r.goal.target ? 'met' : 'MISSED'} (>= ${r.goal.unit === 'percent' ? `${r.goal.target * 100}%` : `${r.goal.target}x`})`
      : ''
    const unit = r.referenceName === 'ceiling' ? 'percent' : 'times'
    lines.push(
      `| ${r.name} | ${num(r.serverRps.median)} | ${ms(r.p50.median)} | ${ms(r.p99.median)} | ${num(r.referenceRps.median)} (${r.referenceName}) | ${formatSpread(r.ratio, unit)} | ${goal} | ${r.notes.join('; ')} |`,
    )
  }
  const text = `${lines.join('\n')}\n`
  process.stdout.write(`\n${text}`)
  return text
}
