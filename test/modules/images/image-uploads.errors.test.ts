import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { PassThrough, Readable } from 'node:stream'
import { describe, it } from 'node:test'
import { MemoryBlobStore } from '../../../src/blobs/memory-blob-store.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { gz, putData, rawImage, type StartedUpload, startUpload } from './image-helpers.ts'

const KIB = 1024
const MAX_COMPRESSED = 64 * KIB
const MAX_UNCOMPRESSED = 1024 * KIB

const reasonOf = (res: { body: { errors?: Array<{ reason: string }> } }) => res.body.errors?.[0]?.reason ?? ''

describe('image upload: refusals', () => {
  const blobs = new MemoryBlobStore()
  const api = useTestApp({
    blobStore: blobs,
    imageUploads: { maxCompressedBytes: MAX_COMPRESSED, maxUncompressedBytes: MAX_UNCOMPRESSED },
  })

  /** Waits until the image's data has started to stream in. */
  const receiving = (id: number) =>
    waitFor(
      async () => {
        const row = await api.db
          .selectFrom('images')
          .select('upload_state')
          .where('id', '=', id)
          .executeTakeFirst()
        return row?.upload_state === 'receiving'
      },
      { message: `image ${id} to be receiving` },
    )

  const imageState = async (upload: StartedUpload, owner: TestUser) => {
    const res = await api.request({
      method: 'GET',
      url: `/v4/images/${upload.image.id}`,
      headers: owner.headers,
    })
    return res.body as { status: string; size: number }
  }

  /**
   * Every refusal: the right status and reason, nothing kept in the store, the image still waiting,
   * and the same URL still taking the corrected data.
   */
  const refuses = async (
    data: Buffer | Readable,
    status: number,
    reason: RegExp,
    headers: Record<string, string> = {},
  ) => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const before = blobs.size
    const res = await putData(api, upload.path, data, headers)
    assert.equal(res.status, status, JSON.stringify(res.body))
    assert.match(reasonOf(res), reason)
    assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
    assert.equal(blobs.size, before, 'nothing partial is kept')
    assert.deepEqual(await imageState(upload, owner), {
      ...(await imageState(upload, owner)),
      status: 'pending_upload',
      size: 0,
    })
    const retry = await putData(api, upload.path, gz(rawImage(4096)))
    assert.equal(retry.status, 200, `the URL takes corrected data: ${JSON.stringify(retry.body)}`)
    return res
  }

  it('refuses data that is not gzip', async () => {
    await refuses(rawImage(8192), 400, /must be gzip-compressed .*not gzip/)
  })

  it('refuses a truncated gzip stream', async () => {
    const data = gz(randomBytes(20 * KIB))
    await refuses(data.subarray(0, data.length - 100), 400, /ends before the end of the image/)
  })

  it('refuses corrupt gzip data', async () => {
    const data = Buffer.from(gz(randomBytes(20 * KIB)))
    for (let i = 200; i < 400; i++) data[i] = (data[i] ?? 0) ^ 0xff
    await refuses(data, 400, /gzip data is corrupt/)
  })

  it('refuses an empty body (an empty image is accepted: image-uploads.test.ts)', async () => {
    await refuses(Buffer.alloc(0), 400, /No image data was sent/)
  })

  it('refuses compressed data over the limit: declared up front, or counted while streaming', async () => {
    const big = gz(randomBytes(MAX_COMPRESSED + KIB))
    await refuses(big, 413, /must not exceed 64 KB \(gzip-compressed\)/)
    const pieces = Array.from({ length: Math.ceil(big.length / 4096) }, (_, i) =>
      big.subarray(i * 4096, (i + 1) * 4096),
    )
    await refuses(Readable.from(pieces), 413, /must not exceed 64 KB/)
  })

  it('stops a decompression bomb at the uncompressed cap', async () => {
    const bomb = gz(Buffer.alloc(64 * MAX_UNCOMPRESSED))
    assert.ok(bomb.length < MAX_COMPRESSED, 'small enough to pass the compressed limit')
    await refuses(bomb, 400, /uncompressed image must not exceed 1 MB/)
  })

  it('refuses disk images in other formats, named', async () => {
    const withHead = (magic: Buffer, at = 0) => {
      const data = rawImage(64 * KIB)
      magic.copy(data, at)
      return data
    }
    const cases: Array<[string, Buffer]> = [
      ['qcow2', withHead(Buffer.from([0x51, 0x46, 0x49, 0xfb, 0, 0, 0, 3]))],
      ['VMDK', withHead(Buffer.from('KDMV'))],
      ['VMDK', withHead(Buffer.from('# Disk DescriptorFile\nversion=1\n'))],
      ['VHDX', withHead(Buffer.from('vhdxfile'))],
      ['VHD', withHead(Buffer.from('conectix'))],
      ['VHD', withHead(Buffer.from('conectix'), 64 * KIB - 512)],
      ['VDI', withHead(Buffer.from([0x7f, 0x10, 0xda, 0xbe]), 64)],
      ['gzip', gz(rawImage(64 * KIB))],
    ]
    for (const [format, raw] of cases) {
      await refuses(
        gz(raw),
        400,
        new RegExp(`must be a gzip-compressed raw disk image .*this is a ${format}`),
      )
    }
  })

  it('refuses other content types with 415', async () => {
    await refuses(gz(rawImage(KIB)), 415, /Content-Type must be application\/octet-stream/, {
      'content-type': 'application/json',
    })
  })

  it('404s an unknown or malformed upload URL, and anything else under the upload path', async () => {
    for (const path of [
      `/image-uploads/${randomBytes(32).toString('base64url')}`,
      '/image-uploads/short',
      '/image-uploads/x/y',
    ]) {
      const res = await putData(api, path, gz(rawImage(KIB)))
      assert.equal(res.status, 404, path)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
    }
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const get = await api.request({ method: 'GET', url: upload.path })
    assert.ok([404, 405].includes(get.status), 'the URL opens nothing but the PUT')
  })

  it('is usable once: a second PUT after success is refused', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    assert.equal((await putData(api, upload.path, gz(rawImage(KIB)))).status, 200)
    const again = await putData(api, upload.path, gz(rawImage(2 * KIB)))
    assert.equal(again.status, 403)
    assert.deepEqual(again.body, { errors: [{ reason: 'This upload URL has already been used' }] })
  })

  it('takes one PUT at a time: a second while the first streams is refused with 409', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const id = Number(upload.image.id.split('/')[1])
    const body = new PassThrough()
    const first = putData(api, upload.path, body)
    const data = gz(rawImage(8 * KIB))
    body.write(data.subarray(0, 100))
    await receiving(id)
    const second = await putData(api, upload.path, gz(rawImage(KIB)))
    assert.equal(second.status, 409)
    assert.deepEqual(second.body, { errors: [{ reason: 'An upload to this URL is already in progress' }] })
    body.end(data.subarray(100))
    assert.equal((await first).status, 200)
  })

  it('an image deleted while its data streams in keeps nothing', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const id = Number(upload.image.id.split('/')[1])
    const body = new PassThrough()
    const pending = putData(api, upload.path, body)
    const data = gz(rawImage(8 * KIB))
    body.write(data.subarray(0, 100))
    await receiving(id)
    const before = blobs.size
    const del = await api.request({
      method: 'DELETE',
      url: `/v4/images/${upload.image.id}`,
      headers: owner.headers,
    })
    assert.equal(del.status, 200)
    body.end(data.subarray(100))
    const res = await pending
    assert.equal(res.status, 404)
    assert.equal(await blobs.head(`images/${id}.img.gz`), undefined)
    assert.equal(blobs.size, before)
  })

  it('an image deleted while its data streams in: the stream is cut with a 404 at the next lease renewal', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const id = Number(upload.image.id.split('/')[1])
    const body = new PassThrough()
    const pending = putData(api, upload.path, body)
    body.write(gz(rawImage(8 * KIB)).subarray(0, 100))
    await receiving(id)
    const del = await api.request({
      method: 'DELETE',
      url: `/v4/images/${upload.image.id}`,
      headers: owner.headers,
    })
    assert.equal(del.status, 200)
    // The body never ends: the renewal that finds the image gone answers, not another upload.
    const res = await pending
    assert.equal(res.status, 404)
    assert.equal(await blobs.head(`images/${id}.img.gz`), undefined)
  })

  it('expires after 24 hours: the URL is refused, then a job removes the image and any partial data', async () => {
    const owner = await createAccount(api)
    const upload = await startUpload(api, owner)
    const done = await startUpload(api, owner)
    assert.equal((await putData(api, done.path, gz(rawImage(KIB)))).status, 200)
    const id = Number(upload.image.id.split('/')[1])
    // Data a crashed process left under the image's key.
    await blobs.put(`images/${id}.img.gz`, Readable.from([Buffer.from('partial')]))

    await api.app.jobs.runPendingJobs()
    api.clock.advance((24 * 3600 - 60) * 1000)
    // Jobs of earlier tests may come due meanwhile (the clock runs on); this image's may not.
    await api.app.jobs.runPendingJobs()
    const waiting = await api.request({
      method: 'GET',
      url: `/v4/images/${upload.image.id}`,
      headers: owner.headers,
    })
    assert.equal(waiting.status, 200, 'not yet')
    assert.equal(waiting.body.status, 'pending_upload')
    api.clock.advance(61 * 1000)
    const late = await putData(api, upload.path, gz(rawImage(KIB)))
    assert.equal(late.status, 403)
    assert.deepEqual(late.body, { errors: [{ reason: 'This upload URL has expired' }] })

    assert.ok((await api.app.jobs.runPendingJobs()) >= 2)
    const gone = await api.request({
      method: 'GET',
      url: `/v4/images/${upload.image.id}`,
      headers: owner.headers,
    })
    assert.equal(gone.status, 404)
    assert.equal(await blobs.head(`images/${id}.img.gz`), undefined, 'partial data removed')
    const kept = await api.request({
      method: 'GET',
      url: `/v4/images/${done.image.id}`,
      headers: owner.headers,
    })
    assert.equal(kept.body.status, 'available', 'an uploaded image stays')
    const after = await putData(api, upload.path, gz(rawImage(KIB)))
    assert.equal(after.status, 404)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ action: 'image_delete', 'entity.id': upload.image.id }),
      },
    })
    assert.equal(events.body.results, 1)
    assert.equal(events.body.data[0].username, null)
    assert.match(events.body.data[0].message, /not uploaded within 24 hours/)
  })
})
