import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtemp, rm } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { crc32 } from 'node:zlib'
import { FsBlobStore } from '../../../src/blobs/fs-blob-store.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { startUpload } from './image-helpers.ts'

const MIB = 1024 * 1024
/** The largest stored deflate block. */
const BLOCK = 65535

/**
 * A gzip file of `blocks` stored (uncompressed) deflate blocks, all the same random bytes: large
 * on the wire, cheap to make and to inflate, and written from a few fixed buffers, so the client
 * side of the test allocates nothing per chunk.
 */
function storedGzip(blocks: number): { parts: () => Generator<Buffer>; bytes: number } {
  const data = randomBytes(BLOCK).fill(0, 0, 512) // a raw disk: no container's magic at its start
  const blockHeader = (last: boolean) => {
    const header = Buffer.alloc(5)
    header[0] = last ? 1 : 0
    header.writeUInt16LE(BLOCK, 1)
    header.writeUInt16LE(~BLOCK & 0xffff, 3)
    return header
  }
  const middle = blockHeader(false)
  const last = blockHeader(true)
  let crc = 0
  for (let i = 0; i < blocks; i++) crc = crc32(data, crc)
  const trailer = Buffer.alloc(8)
  trailer.writeUInt32LE(crc >>> 0, 0)
  trailer.writeUInt32LE((blocks * BLOCK) % 2 ** 32, 4)
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3])
  return {
    bytes: header.length + blocks * (5 + BLOCK) + trailer.length,
    *parts() {
      yield header
      for (let i = 0; i < blocks; i++) {
        yield i === blocks - 1 ? last : middle
        yield data
      }
      yield trailer
    },
  }
}

/**
 * Each chunk of a request body is memory outside V8's heap; left to the collector, it piles up
 * until V8 runs a full collection of the whole heap for it, on the event loop, about every 64 MiB
 * of upload. The upload frees its chunks as soon as they are stored.
 */
describe('image upload over a socket: memory', () => {
  let dir: string
  let store: FsBlobStore
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cloudplane-upload-memory-'))
    store = await FsBlobStore.open(dir)
  })
  after(() => rm(dir, { recursive: true, force: true }))
  const api = useTestApp(() => ({ blobStore: store }))

  it('does not hold the bytes it has stored: 96 MiB go through with far less held at any time', async () => {
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    const address = api.app.server.address()
    assert.ok(address !== null && typeof address === 'object')
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const body = storedGzip(Math.ceil((96 * MIB) / BLOCK))

    const start = process.memoryUsage().arrayBuffers
    let most = 0
    const sampler = setInterval(() => {
      most = Math.max(most, process.memoryUsage().arrayBuffers - start)
    }, 2)
    try {
      const req = httpRequest({
        host: '127.0.0.1',
        port: address.port,
        path: upload.path,
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream', 'content-length': body.bytes },
      })
      const answered = once(req, 'response')
      for (const part of body.parts()) {
        if (!req.write(part)) await once(req, 'drain')
      }
      req.end()
      const [res] = (await answered) as [import('node:http').IncomingMessage]
      let text = ''
      for await (const chunk of res) text += chunk
      assert.equal(res.statusCode, 200, text)
      assert.equal(JSON.parse(text).status, 'available')
    } finally {
      clearInterval(sampler)
    }
    assert.deepEqual(await store.head(`images/${upload.image.id.split('/')[1]}.img.gz`), { size: body.bytes })
    assert.ok(most < 24 * MIB, `${(most / MIB).toFixed(1)} MiB of buffers held at once`)
  })
})
