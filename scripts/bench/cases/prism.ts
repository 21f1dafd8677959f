import { spawn } from 'node:child_process'
import { existsSync, openSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  type BenchRequest,
  type CaseResult,
  freePort,
  measure,
  type RunningServer,
  waitFor,
} from '../harness.ts'

/**
 * cloudplane against Prism, the OpenAPI mock server people would pick instead, mocking the
 * committed openapi.json: the reads both serve, each compared as req/s (goal: 4x Prism's). Prism
 * serves the document's paths without the `/v4` server prefix.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const PRISM = join(ROOT, 'node_modules', '.bin', 'prism')

async function startPrism(logDir: string): Promise<RunningServer> {
  const port = await freePort()
  const log = openSync(join(logDir, `prism-${port}.log`), 'a')
  // Prism logs every request, as cloudplane does: to a file here too.
  const child = spawn(PRISM, ['mock', '-h', '127.0.0.1', '-p', String(port), join(ROOT, 'openapi.json')], {
    stdio: ['ignore', log, log],
    env: { ...process.env, SCARF_ANALYTICS: 'false' },
  })
  const baseUrl = `http://127.0.0.1:${port}`
  await waitFor(`${baseUrl}/regions`, child)
  return {
    baseUrl,
    child,
    stop: async () => {
      if (child.exitCode !== null) return
      child.kill('SIGTERM')
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

export async function prismCases(
  server: RunningServer,
  token: string,
  logDir: string,
): Promise<CaseResult[]> {
  if (!existsSync(PRISM)) {
    console.log('\nPrism comparison: skipped (@stoplight/prism-cli is not installed)')
    return []
  }
  const auth = { authorization: `Bearer ${token}` }
  const vpc = await fetch(`${server.baseUrl}/v4/vpcs`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({
      label: 'bench-prism',
      region: 'us-iad',
      subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }],
    }),
  })
  const { id } = (await vpc.json()) as { id: number }
  const reads: Array<[string, Record<string, string>]> = [
    ['/regions', {}],
    ['/regions/availability', {}],
    ['/compute/types', {}],
    ['/images', {}],
    ['/profile', auth],
    ['/profile/tokens', auth],
    ['/account/events', auth],
    [`/vpcs/${id}`, auth],
  ]
  const prism = await startPrism(logDir)
  const results: CaseResult[] = []
  try {
    for (const [path, headers] of reads) {
      const request: BenchRequest = { method: 'GET', path: `/v4${path}`, headers }
      results.push(
        await measure(`GET /v4${path} vs Prism`, server.baseUrl, request, {
          goal: 4,
          reference: { name: 'Prism', server: prism, request: { ...request, path } },
        }),
      )
    }
  } finally {
    await prism.stop()
  }
  return results
}
