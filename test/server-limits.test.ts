import assert from 'node:assert/strict'
import { PassThrough } from 'node:stream'
import { before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryBlobStore } from '../src/blobs/memory-blob-store.ts'
import { buildTestApp, type TestApp, useTestApp } from './helpers/app.ts'
import { createAccount } from './helpers/factories.ts'
import { rawConnection } from './helpers/raw-connection.ts'
import { waitFor } from './helpers/wait-for.ts'
import { gz, putData, rawImage, startUpload, uploadState } from './modules/images/image-helpers.ts'

/**
 * Opens a PUT of `data` to an upload URL on a raw connection and sends its first ten bytes only;
 * resolves with what the server sent once it closes the connection.
 */
async function stalledUpload(port: number, path: string, data: Buffer): Promise<string> {
  const { socket, closed } = await rawConnection(port)
  socket.write(
    `PUT ${path} HTTP/1.1\r\nHost: x\r\nContent-Type: application/octet-stream\r\nContent-Length: ${data.length}\r\n\r\n`,
  )
  socket.write(data.subarray(0, 10))
  return closed
}

/** Starts the app listening on a free local port, and returns the port. */
async function listenOnAnyPort(api: TestApp): Promise<number> {
  await api.app.listen({ port: 0, host: '127.0.0.1' })
  const address = api.app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening')
  return address.port
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
    port = await listenOnAnyPort(api)
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

  it('a CONNECT gets 405 in the envelope instead of a dropped connection', async () => {
    const { socket, closed } = await rawConnection(port)
    socket.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')
    const answer = parseAnswer(await closed)
    assert.equal(answer.status, 405)
    assert.deepEqual(answer.body, { errors: [{ reason: 'Method not allowed' }] })
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
    await stalledUpload(port, upload.path, gz(rawImage(64 * 1024)))
    await waitFor(async () => (await uploadState(api, upload.image.id)) === 'waiting', {
      message: 'the upload to be released',
    })
  })

  it('connections beyond the limit are refused', async () => {
    const held = await Promise.all(Array.from({ length: 8 }, () => rawConnection(port)))
    const extra = await rawConnection(port).catch(() => undefined)
    if (extra !== undefined) assert.equal(await extra.closed, '', 'closed without an answer')
    for (const { socket } of held) socket.destroy()
  })
})

/** A memory store whose writers open only when the test lets them. */
class GatedBlobStore extends MemoryBlobStore {
  #ask = () => {}
  /** Resolves once a writer is asked for. */
  readonly asked = new Promise<void>((resolve) => {
    this.#ask = resolve
  })
  /** Lets writers open. */
  open = () => {}
  readonly #opened = new Promise<void>((resolve) => {
    this.open = resolve
  })

  override async create(key: string) {
    this.#ask()
    await this.#opened
    return super.create(key)
  }
}

describe('an upload cut while the server is still preparing to read it', () => {
  const store = new GatedBlobStore()
  const api: TestApp = useTestApp({ http: { idleTimeoutMs: 300 }, blobStore: store })
  let port: number

  before(async () => {
    port = await listenOnAnyPort(api)
  })

  // The connection is gone before the body is first read (a slow claim, a slow store): the upload
  // must still end, give its URL back and let go of its inspection.
  it('is released, and its URL takes data again', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const data = gz(rawImage(64 * 1024))
    const closed = stalledUpload(port, upload.path, data)
    await store.asked
    await closed
    store.open()
    await waitFor(async () => (await uploadState(api, upload.image.id)) === 'waiting', {
      message: 'the upload to be released',
    })
    const again = await putData(api, upload.path, data)
    assert.equal(again.status, 200)
    assert.equal(again.body.status, 'available')
  })
})

describe('an upload still receiving when the server closes', () => {
  it('is answered 503, its URL given back, and the close completes', async () => {
    const api = await buildTestApp()
    try {
      const owner = await createAccount(api)
      const upload = await startUpload(api, owner)
      const body = new PassThrough()
      body.write(gz(rawImage(64 * 1024)).subarray(0, 10))
      const answer = putData(api, upload.path, body)
      await waitFor(async () => (await uploadState(api, upload.image.id)) === 'receiving', {
        message: 'the upload to be claimed',
      })
      await api.app.close()
      const cut = await Promise.race([
        answer,
        sleep(5000, undefined, { ref: false }).then(() => assert.fail('the upload was not answered')),
      ])
      assert.equal(cut.status, 503)
      assert.deepEqual(cut.body, { errors: [{ reason: 'The server is shutting down; retry the upload' }] })
      assert.equal(await uploadState(api, upload.image.id), 'waiting')
    } finally {
      await api.close()
    }
  })
})
