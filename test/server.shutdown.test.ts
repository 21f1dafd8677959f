import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { buildTestApp } from './helpers/app.ts'
import { createAccount } from './helpers/factories.ts'
import { processDatabase, startServerProcess } from './helpers/processes.ts'
import { rawConnection } from './helpers/raw-connection.ts'
import { waitFor } from './helpers/wait-for.ts'

/** Each answer of a raw stream: status, head and body. */
function answers(text: string): { status: number; head: string; body: string }[] {
  const out: { status: number; head: string; body: string }[] = []
  let rest = text
  while (rest.startsWith('HTTP/')) {
    const end = rest.indexOf('\r\n\r\n')
    if (end < 0) break
    const head = rest.slice(0, end)
    const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? 0)
    out.push({ status: Number(head.split(' ')[1]), head, body: rest.slice(end + 4, end + 4 + length) })
    rest = rest.slice(end + 4 + length)
  }
  return out
}

const postVpc = (token: string, body: string, sent: number) =>
  `POST /v4/vpcs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, sent)}`

describe('a server that is stopping', () => {
  it('finishes the write in flight, then closes its connection; what arrives meanwhile is refused in the envelope', async () => {
    const api = await buildTestApp()
    try {
      await api.app.listen({ port: 0, host: '127.0.0.1' })
      const { port } = api.app.server.address() as { port: number }
      const owner = await createAccount(api)
      const body = JSON.stringify({ label: 'closing-vpc', region: 'us-iad' })
      const held = await rawConnection(port)
      held.socket.write(postVpc(owner.token, body, 5))
      // Another client's request, its headers not all sent yet.
      const late = await rawConnection(port)
      late.socket.write('GET /v4/regions HTTP/1.1\r\nHost: x\r\n')
      await sleep(100)
      const closing = api.app.close()
      await sleep(50)
      late.socket.write(`Authorization: Bearer ${owner.token}\r\n\r\n`)
      held.socket.write(body.slice(5))
      await Promise.all([held.closed, late.closed])
      await closing
      // The write in flight is answered, and its connection closed once idle (awaited above).
      const [written] = answers(held.received())
      assert.equal(written?.status, 200, held.received())
      const [refused] = answers(late.received())
      assert.equal(refused?.status, 503, late.received())
      assert.match(refused?.head ?? '', /retry-after: 1/i)
      assert.deepEqual(JSON.parse(refused?.body ?? ''), {
        errors: [{ reason: 'The server is shutting down; retry shortly' }],
      })
    } finally {
      await api.close()
    }
  })

  it('stops at once after SIGTERM when its last request came on a keep-alive connection', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-shutdown-'))
    const database = await processDatabase(dir)
    const token = randomBytes(32).toString('hex')
    const server = await startServerProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dir,
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
      LOG_LEVEL: 'info',
    })
    try {
      const port = Number(new URL(server.baseUrl).port)
      const body = JSON.stringify({ label: `ka-${randomBytes(3).toString('hex')}`, region: 'us-iad' })
      const client = await rawConnection(port)
      client.socket.write(postVpc(token, body, 10))
      await sleep(200)
      server.child.kill('SIGTERM')
      await sleep(200)
      client.socket.write(body.slice(10))
      await waitFor(() => client.received().includes('\r\n\r\n'), { timeout: 5000, message: 'the answer' })
      assert.equal(answers(client.received())[0]?.status, 200)
      const [code] = await once(server.child, 'exit')
      client.socket.destroy()
      // Before, the open connection held the close until the grace period ran out (exit 1).
      assert.doesNotMatch(server.output(), /still running after the grace period/)
      assert.equal(code, 0)
    } finally {
      await server.stop()
      await database.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
