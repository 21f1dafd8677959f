import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { startServerProcess } from './helpers/processes.ts'

describe('the configured bootstrap token', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cloudplane-bootstrap-'))
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('is created once: revoked, it stays revoked on every later start with the same setting', async () => {
    const token = randomBytes(32).toString('hex')
    const env = { DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN: token }
    const headers = { authorization: `Bearer ${token}` }
    const first = await startServerProcess(env)
    try {
      const tokens = await fetch(`${first.baseUrl}/v4/profile/tokens`, { headers })
      const [own] = ((await tokens.json()) as { data: { id: number; label: string }[] }).data
      assert.equal(own?.label, 'bootstrap')
      const revoked = await fetch(`${first.baseUrl}/v4/profile/tokens/${own.id}`, {
        method: 'DELETE',
        headers,
      })
      assert.equal(revoked.status, 200)
      assert.equal((await fetch(`${first.baseUrl}/v4/profile`, { headers })).status, 401)
    } finally {
      await first.stop()
    }
    for (let restart = 0; restart < 2; restart++) {
      const again = await startServerProcess(env)
      try {
        assert.equal((await fetch(`${again.baseUrl}/v4/profile`, { headers })).status, 401)
      } finally {
        await again.stop()
      }
    }
  })

  it('a new value is seeded as the operator’s new token', async () => {
    const token = randomBytes(32).toString('hex')
    const server = await startServerProcess({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN: token })
    try {
      const res = await fetch(`${server.baseUrl}/v4/profile`, {
        headers: { authorization: `Bearer ${token}` },
      })
      assert.equal(res.status, 200)
    } finally {
      await server.stop()
    }
  })
})
