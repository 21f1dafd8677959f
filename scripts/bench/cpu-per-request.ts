/**
 * Server CPU time per request, a steadier figure than requests/s on a noisy machine:
 *   node scripts/bench/cpu-per-request.ts --data <dir> --token <t> --path /v4/vpcs/1 [--header 'X-Filter: {…}']
 * Copies the data directory (a cloudplane DATA_DIR), serves it, loads one path with autocannon and
 * reads the server's user+system time from /proc before and after.
 */
import { cpSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { load, startCloudplane } from './harness.ts'

const { values } = parseArgs({
  options: {
    data: { type: 'string' },
    token: { type: 'string' },
    path: { type: 'string' },
    header: { type: 'string', multiple: true, default: [] },
    method: { type: 'string', default: 'GET' },
    duration: { type: 'string', default: '5' },
  },
})
if (!values.data || !values.token || !values.path) throw new Error('--data, --token and --path are required')
const dir = mkdtempSync(join(tmpdir(), 'cpu-per-request-'))
cpSync(values.data, dir, { recursive: true })
const server = await startCloudplane({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN: values.token }, dir)
const headers: Record<string, string> = { authorization: `Bearer ${values.token}` }
for (const h of values.header) {
  const i = h.indexOf(':')
  headers[h.slice(0, i).trim().toLowerCase()] = h.slice(i + 1).trim()
}
const request = { method: values.method as 'GET', path: values.path, headers }
const cpu = () => {
  const fields = readFileSync(`/proc/${server.child.pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
  return (Number(fields[11]) + Number(fields[12])) / 100
}
await load(server.baseUrl, request, { duration: 2 })
const before = cpu()
const result = await load(server.baseUrl, request, { duration: Number(values.duration) })
const used = cpu() - before
await server.stop()
console.log(
  `${result.requests} requests (${result.non2xx} non-2xx), ${Math.round(result.rps)} req/s, server CPU ${used.toFixed(2)} s, ${Math.round((used / result.requests) * 1e6)} µs per request`,
)
