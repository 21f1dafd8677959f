import assert from 'node:assert/strict'
import { once } from 'node:events'
import { connect, type Socket } from 'node:net'
import { before, describe, it } from 'node:test'
import { type TestApp, useTestApp } from './helpers/app.ts'
import { createAccount } from './helpers/factories.ts'
import { waitFor } from './helpers/wait-for.ts'
import { gz, rawImage, startUpload } from './modules/images/image-helpers.ts'

/** Opens a raw connection to the app, collecting what the server sends until it closes. */
async function rawConnection(port: number): Promise<{ socket: Socket; closed: Promise<string> }> {
  const socket = connect(port, '127.0.0.1')
  await once(socket, 'connect')
  let received = ''
  socket.on('data', (chunk) => {
    received += chunk
  })
  socket.on('error', () => {})
  const closed = once(socket, 'close').then(() => received)
  return { socket, closed }
}

/** Status and JSON body of a raw HTTP/1.1 answer. */
function parseAnswer(text: string): { status: number; body: unknown } {
  const [head = '', body = ''] = text.split('\r\n\r\n')
  const status = Number(head.split(' ')[1])
  return { status, body: body === '' ? undefined : JSON.parse(body) }
}

describe('what one HTTP connection may hold of the server', () => {
  const api: TestApp = useTestApp({
    http: { headersTimeoutMs: 300, idleTimeoutMs: 500, keepAliveTimeoutMs: 200, maxConnections: 8 },
  })
  let port: number

  before(async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    const address = api.app.server.address()
    if (address === null || typeof address === 'string') throw new Error('not listening')
    port = address.port
  })

  it('a request without Host gets 400 in the envelope', async () => {
    const { socket, closed } = await rawConnection(port)
    socket.write('GET /v4/regions HTTP/1.1\r\nConnection: close\r\n\r\n')
    const answer = parseAnswer(await closed)
    assert.equal(answer.status, 400)
    assert.deepEqual(answer.body, { errors: [{ reason: 'The Host header is required' }] })
  })

  it('an Expect other than 100-continue gets 417 in the envelope', async () => {
    const { socket, closed } = await rawConnection(port)
    socket.write('GET /v4/regions HTTP/1.1\r\nHost: x\r\nExpect: foo\r\nConnection: close\r\n\r\n')
    const answer = parseAnswer(await closed)
    assert.equal(answer.status, 417)
    assert.deepEqual(answer.body, { errors: [{ reason: 'Only "Expect: 100-continue" is supported' }] })
  })

  it('a header that stalls gets 408 in the envelope, and the connection is closed', async () => {
    const { socket, closed } = await rawConnection(port)
    socket.write('GET /v4/regions HTTP/1.1\r\nHost: x\r\n')
    const answer = parseAnswer(await closed)
    assert.equal(answer.status, 408)
    assert.deepEqual(answer.body, {
      errors: [{ reason: 'Request timeout: the request did not arrive in time' }],
    })
  })

  it('a connection that sends nothing is closed, with a 408', async () => {
    const { closed } = await rawConnection(port)
    assert.equal(parseAnswer(await closed).status, 408)
  })

  it('an idle keep-alive connection is closed after its answer', async () => {
    const { socket, closed } = await rawConnection(port)
    socket.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.equal(parseAnswer(await closed).status, 200)
  })

  it('an upload whose body stalls is cut, and its URL takes data again', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const { socket, closed } = await rawConnection(port)
    const data = gz(rawImage(64 * 1024))
    socket.write(
      `PUT ${upload.path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${data.length}\r\n\r\n`,
    )
    socket.write(data.subarray(0, 10))
    await closed
    const id = Number(upload.image.id.split('/')[1])
    const state = async () =>
      (await api.db.selectFrom('images').select('upload_state').where('id', '=', id).executeTakeFirst())
        ?.upload_state
    await waitFor(async () => (await state()) === 'waiting', { message: 'the upload to be released' })
  })

  it('connections beyond the limit are refused', async () => {
    const held = await Promise.all(Array.from({ length: 8 }, () => rawConnection(port)))
    const extra = await rawConnection(port).catch(() => undefined)
    if (extra !== undefined) assert.equal(await extra.closed, '', 'closed without an answer')
    for (const { socket } of held) socket.destroy()
  })
})
