import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { openSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'

/**
 * The benchmark harness: cloudplane runs as a real server process (the default configuration,
 * request logging on), every case is measured with autocannon from this process, and next to it a
 * bare `node:http` server answering with the very same response bytes gives the case's ceiling.
 */

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
const CEILING = fileURLToPath(new URL('./ceiling-server.ts', import.meta.url))

export const DURATION_SECONDS = Number(process.env.BENCH_DURATION ?? 5)
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

export interface RunningServer {
  baseUrl: string
  child: ChildProcess
  stop(): Promise<void>
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

async function waitFor(url: string, child: ChildProcess): Promise<void> {
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

/** A short unmeasured run, so JIT and caches are warm before the measured one. */
export async function warm(
  baseUrl: string,
  request: BenchRequest,
  sequence?: autocannon.Request[],
): Promise<void> {
  await load(baseUrl, request, { duration: 1, ...(sequence && { sequence }) })
}

export interface CaseResult {
  name: string
  server: LoadResult
  ceiling: LoadResult
  ratio: number
  goal?: number
  /** Relative cost growth against a smaller twin case, e.g. 1,000 rows vs 1,000,000. */
  growth?: { against: string; value: number; max: number }
}

/**
 * Measures a case against its ceiling: capture the response, warm both, then run the ceiling
 * and the server one after the other (never at once: they would share the two cores).
 */
export async function measure(
  name: string,
  baseUrl: string,
  request: BenchRequest,
  options: {
    goal?: number
    sequence?: autocannon.Request[]
    ceilingResponse?: CapturedResponse
    /** Restores the server's state before each run (a write loop cut short leaves its last write). */
    reset?: () => Promise<void>
  } = {},
): Promise<CaseResult> {
  const captured = options.ceilingResponse ?? (await capture(baseUrl, request))
  const ceiling = await startCeiling(captured)
  try {
    await warm(ceiling.baseUrl, request)
    const ceilingResult = await load(ceiling.baseUrl, request)
    await options.reset?.()
    await warm(baseUrl, request, options.sequence)
    await options.reset?.()
    const serverResult = await load(baseUrl, request, options.sequence ? { sequence: options.sequence } : {})
    if (serverResult.non2xx > 0 || serverResult.errors > 0) {
      throw new Error(
        `${name}: ${serverResult.non2xx} non-2xx answers and ${serverResult.errors} errors under load`,
      )
    }
    return {
      name,
      server: serverResult,
      ceiling: ceilingResult,
      ratio: serverResult.rps / ceilingResult.rps,
      ...(options.goal !== undefined && { goal: options.goal }),
    }
  } finally {
    await ceiling.stop()
  }
}

/** Cost growth from the small table to the large one: how much more each request costs. */
export function growth(small: CaseResult, large: CaseResult, max: number): CaseResult {
  return { ...large, growth: { against: small.name, value: small.server.rps / large.server.rps - 1, max } }
}

const pct = (v: number) => `${(v * 100).toFixed(1)}%`
const num = (v: number) => v.toFixed(0)

export function printTable(title: string, results: CaseResult[]): string {
  const header = '| case | req/s | p50 ms | p99 ms | ceiling req/s | ratio | goal | growth |'
  const lines = [`### ${title}`, '', header, '|---|---|---|---|---|---|---|---|']
  for (const r of results) {
    const goal = r.goal === undefined ? '' : `${r.ratio >= r.goal ? 'met' : 'MISSED'} (>= ${pct(r.goal)})`
    const g = r.growth
      ? `${pct(r.growth.value)} vs ${r.growth.against} (${r.growth.value < r.growth.max ? 'met' : 'MISSED'}, < ${pct(r.growth.max)})`
      : ''
    lines.push(
      `| ${r.name} | ${num(r.server.rps)} | ${r.server.p50} | ${r.server.p99} | ${num(r.ceiling.rps)} | ${pct(r.ratio)} | ${goal} | ${g} |`,
    )
  }
  const text = `${lines.join('\n')}\n`
  process.stdout.write(`\n${text}`)
  return text
}
