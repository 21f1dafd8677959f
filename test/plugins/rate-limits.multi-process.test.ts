import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { type ServerProcess, startServerProcess } from '../helpers/processes.ts'

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'

describe('rate limits counted across the processes of a deployment', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloudplane-rate-'))
  const servers: ServerProcess[] = []
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    rmSync(dir, { recursive: true, force: true })
  })

  it('two processes sharing Redis share one count', async () => {
    const token = randomBytes(32).toString('hex')
    const env = {
      DATA_DIR: dir,
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
      CLOUDPLANE_RATE_LIMITS: 'real',
      CLOUDPLANE_REDIS_URL: REDIS_URL,
    }
    servers.push(await startServerProcess(env))
    servers.push(await startServerProcess(env))
    const [a, b] = servers as [ServerProcess, ServerProcess]
    const list = (server: ServerProcess) =>
      fetch(`${server.baseUrl}/v4/images`, { headers: { authorization: `Bearer ${token}` } })
    const statuses: number[] = []
    for (let i = 0; i < 10; i++) {
      statuses.push((await list(a)).status, (await list(b)).status)
    }
    assert.deepEqual(statuses, Array(20).fill(200))
    const last = await list(b)
    assert.equal(last.headers.get('x-ratelimit-limit'), '20')
    assert.equal(last.status, 429, 'the 21st call of the minute, whichever process answers it')
    assert.equal((await list(a)).status, 429)
  })
})
