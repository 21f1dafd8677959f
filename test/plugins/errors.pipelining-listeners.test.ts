import assert from 'node:assert/strict'
import type { ServerResponse } from 'node:http'
import { before, describe, it } from 'node:test'
import { rawConnection } from '../helpers/raw-connection.ts'
import { waitFor } from '../helpers/wait-for.ts'
import { bootstrapHeaders, useControlApp } from '../modules/control/control-app.ts'

const statuses = (text: string): number[] =>
  [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Za-z ]+\r\n/g)].map((m) => Number(m[1]))

/**
 * The refusal after pipelined requests waits for each earlier answer once, on whichever of its
 * 'finish' and 'close' comes first: waiting on both made each start a wait of its own on the next
 * answer, doubling the listeners with every pipelined request.
 */
describe('pipelined requests answered one after the other, then a malformed one', () => {
  const api = useControlApp()
  let port: number
  before(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    port = (api.app.server.address() as { port: number }).port
  })

  it('waits for each earlier answer once: its listeners do not pile up', async () => {
    const n = 8
    // Each request's answer comes some time after the one before it.
    for (let k = 1; k <= n; k++) {
      const rule = await api.admin('POST', '/faults', { path: `/v4/regions/slow-${k}`, latency_ms: 40 * k })
      assert.equal(rule.status, 200, JSON.stringify(rule.body))
    }
    const most = { finish: 0, close: 0 }
    const track = (_req: unknown, res: ServerResponse) => {
      const original = res.once.bind(res)
      res.once = ((event: string, listener: (...args: unknown[]) => void) => {
        original(event, listener)
        if (event === 'finish' || event === 'close')
          most[event] = Math.max(most[event], res.listenerCount(event))
        return res
      }) as typeof res.once
    }
    api.app.server.prependListener('request', track)
    try {
      const { socket, closed } = await rawConnection(port)
      let requests = ''
      for (let k = 1; k <= n; k++) {
        requests += `GET /v4/regions/slow-${k} HTTP/1.1\r\nHost: x\r\nAuthorization: ${bootstrapHeaders.authorization}\r\n\r\n`
      }
      socket.write(`${requests}GARBAGE\r\n\r\n`)
      // Bounded only to detect a hang.
      await waitFor(() => socket.closed, { timeout: 20_000, message: 'the connection to close' })
      const text = await closed
      assert.deepEqual(statuses(text), [...Array(n).fill(404), 400])
      // Node's own listeners (resOnFinish, onServerResponseClose...) plus one wait.
      assert.ok(
        most.finish <= 3,
        `an answer carried ${most.finish} 'finish' listeners (${most.close} 'close')`,
      )
    } finally {
      api.app.server.off('request', track)
      await api.admin('DELETE', '/faults')
    }
  })
})
