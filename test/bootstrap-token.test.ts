import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
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

  it("the first start's example reads a token given in a file from that file", async () => {
    const token = randomBytes(32).toString('hex')
    const data = join(dir, 'from-file')
    mkdirSync(data)
    // A quote in the path: the example must still be one a shell runs as it is.
    const file = join(dir, "it's the token")
    writeFileSync(file, `${token}\n`)
    const server = await startServerProcess({ DATA_DIR: data, CLOUDPLANE_BOOTSTRAP_TOKEN_FILE: file })
    try {
      const example = /curl -H "Authorization: Bearer (.*)" http/.exec(server.output())?.[1]
      assert.ok(example !== undefined, server.output())
      assert.ok(!example.includes(token), 'the token itself is not printed')
      assert.equal(execFileSync('bash', ['-c', `printf %s "${example}"`], { encoding: 'utf8' }), token)
    } finally {
      await server.stop()
    }
  })
})
