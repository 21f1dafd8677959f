import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { rawConnection } from '../helpers/raw-connection.ts'

/** The status of every HTTP/1.1 answer in a connection's bytes, in order. */
const statuses = (text: string): number[] =>
  [...text.matchAll(/HTTP\/1\.1 (\d{3}) [A-Za-z ]+\r\n/g)].map((m) => Number(m[1]))

/**
 * A malformed request after pipelined ones is refused only once the answers before it are sent:
 * closing at once would lose them, and a client would retry a write that happened.
 */
describe('pipelined requests followed by a malformed one', () => {
  const api = useTestApp()
  let port: number
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    port = (api.app.server.address() as { port: number }).port
  })

  it('answers the earlier requests, in order, then the 400, then closes', async () => {
    const label = 'piped-before-garbage'
    const body = JSON.stringify({ label, region: 'us-iad' })
    const { socket, closed } = await rawConnection(port)
    socket.write(
      `POST /v4/vpcs HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${owner.token}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
        'GET /v4/regions/us-iad HTTP/1.1\r\nHost: x\r\n\r\n' +
        'GARBAGE\r\n\r\nMORE GARBAGE\r\n\r\n',
    )
    // The server closes the connection after its 400.
    const text = await closed
    assert.deepEqual(statuses(text), [200, 200, 400], text)
    assert.match(text, new RegExp(`"label":"${label}"`))
    assert.match(text, /\{"errors":\[\{"reason":"Malformed HTTP request"\}\]\}$/)
    const created = await api.db.selectFrom('vpcs').select('id').where('label', '=', label).execute()
    assert.equal(created.length, 1)
  })

  it('refuses a malformed request alone at once', async () => {
    const { socket, closed } = await rawConnection(port)
    socket.write('GARBAGE\r\n\r\n')
    assert.deepEqual(statuses(await closed), [400])
  })
})
