import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { after, describe, it } from 'node:test'
import { hashTokenSecret } from '../src/modules/auth/token-secret.ts'
import { type ServerProcess, startServerProcess } from './helpers/processes.ts'

/** The newcomer's path: `npm start` on the embedded default (SQLite in the data directory). */
describe('first and second start on the embedded default', () => {
  const dirs: string[] = []
  const servers: ServerProcess[] = []
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })
  const start = async (env: Record<string, string>) => {
    const server = await startServerProcess(env)
    servers.push(server)
    return server
  }
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-start-'))
    dirs.push(dir)
    return dir
  }

  it('prints a * token once with a curl line; a second start reuses the data and prints none', async () => {
    const dir = tempDir()
    const first = await start({ DATA_DIR: dir, LOG_LEVEL: 'info' })
    const printed = first.output()
    const token = /^ {2}([0-9a-f]{64})$/m.exec(printed)?.[1]
    assert.ok(token, printed)
    assert.match(printed, new RegExp(`curl -H "Authorization: Bearer ${token}" ${first.baseUrl}/v4/profile`))
    const profile = await fetch(`${first.baseUrl}/v4/profile`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(profile.status, 200)
    assert.equal(((await profile.json()) as { username: string }).username, 'admin')
    await first.stop()
    // The token appears only in the welcome text on stderr, never in a log line (the access log is
    // buffered, so the lines are read once the server has stopped and flushed them).
    const logLines = first
      .output()
      .split('\n')
      .filter((l) => l.startsWith('{'))
    assert.ok(logLines.length > 0)
    assert.ok(logLines.every((l) => !l.includes(token)))

    const second = await start({ DATA_DIR: dir, LOG_LEVEL: 'info' })
    assert.doesNotMatch(second.output(), /[0-9a-f]{64}/)
    const again = await fetch(`${second.baseUrl}/v4/profile`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(again.status, 200, 'the first token still works: the data persisted')
    await second.stop()
  })

  it("a configured bootstrap token is the default user's token and is never printed", async () => {
    const dir = tempDir()
    const token = randomBytes(32).toString('hex')
    const server = await start({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'info' })
    try {
      assert.doesNotMatch(server.output(), new RegExp(token))
      assert.match(server.output(), /CLOUDPLANE_BOOTSTRAP_TOKEN/)
      const res = await fetch(`${server.baseUrl}/v4/profile`, {
        headers: { authorization: `Bearer ${token}` },
      })
      assert.equal(res.status, 200)
      const ready = await fetch(`${server.baseUrl}/readyz`)
      assert.equal(ready.status, 200)
    } finally {
      await server.stop()
    }
  })

  it('a token revoked by another process on the same SQLite file fails on the very next request', async () => {
    const dir = tempDir()
    const token = randomBytes(32).toString('hex')
    const server = await start({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN: token })
    const headers = { authorization: `Bearer ${token}` }
    // Several requests, so that the server has the token in its lookup cache.
    for (let i = 0; i < 3; i++)
      assert.equal((await fetch(`${server.baseUrl}/v4/profile`, { headers })).status, 200)
    const other = new DatabaseSync(join(dir, 'cloudplane.db'))
    try {
      other.exec('pragma busy_timeout = 5000')
      other.prepare('delete from tokens where token_hash = ?').run(hashTokenSecret(token))
    } finally {
      other.close()
    }
    assert.equal((await fetch(`${server.baseUrl}/v4/profile`, { headers })).status, 401)
  })

  it('logs one access line per request, without the token', async () => {
    const dir = tempDir()
    const token = randomBytes(32).toString('hex')
    const server = await start({ DATA_DIR: dir, CLOUDPLANE_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'info' })
    try {
      await fetch(`${server.baseUrl}/v4/profile?probe=1`, { headers: { authorization: `Bearer ${token}` } })
    } finally {
      await server.stop()
    }
    const lines = server
      .output()
      .split('\n')
      .filter((l) => l.includes('"msg":"request"'))
    const probe = lines.find((l) => l.includes('"url":"/v4/profile"'))
    assert.ok(probe, server.output())
    assert.doesNotMatch(server.output(), /probe=1/, 'the query string is never logged')
    const entry = JSON.parse(probe)
    assert.equal(entry.method, 'GET')
    assert.equal(entry.status, 200)
    assert.ok(typeof entry.reqId === 'string')
    assert.doesNotMatch(server.output(), new RegExp(token))
  })
})
