import assert from 'node:assert/strict'
import { createHash, randomBytes } from 'node:crypto'
import { PassThrough, Readable, Writable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { describe, it } from 'node:test'
import pino from 'pino'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { gz, putData, rawImage, startUpload } from './image-helpers.ts'

const MIB = 1024 * 1024

describe('image upload', () => {
  const logLines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk))
      done()
    },
  })
  const api = useTestApp({
    logger: pino({ level: 'info' }, sink),
    imageUploads: { publicUrl: 'https://cloud.example.test/base' },
  })

  it('creates a pending image and an upload URL of this server', async () => {
    const owner = await createAccount(api)
    const res = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: { label: 'golden', region: 'us-iad', description: 'Golden image', cloud_init: true },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.headers['x-accepted-oauth-scopes'], 'images:read_write')
    assert.deepEqual(Object.keys(res.body), ['upload_to', 'image'])
    assert.match(
      res.body.upload_to,
      /^https:\/\/cloud\.example\.test\/base\/image-uploads\/[A-Za-z0-9_-]{43}$/,
    )
    const image = res.body.image
    assert.match(image.id, /^private\/\d+$/)
    assert.equal(image.label, 'golden')
    assert.equal(image.description, 'Golden image')
    assert.equal(image.status, 'pending_upload')
    assert.equal(image.size, 0)
    assert.equal(image.created_by, owner.user.username)
    assert.equal(image.type, 'manual')
    assert.equal(image.is_public, false)
    assert.equal(image.expiry, null)
    assert.deepEqual(image.capabilities, ['cloud-init'])
    const listed = await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: owner.headers })
    assert.equal(listed.body.status, 'pending_upload')
    const plain = await startUpload(api, owner)
    assert.equal(plain.image.status, 'pending_upload')
    assert.deepEqual((plain.image as unknown as { capabilities: string[] }).capabilities, [])
    assert.equal((plain.image as unknown as { description: string }).description, '')
  })

  it('stores the secret of the URL only as a hash', async () => {
    const owner = await createAccount(api)
    const started = await startUpload(api, owner)
    const row = await api.db
      .selectFrom('images')
      .select(['upload_token_hash'])
      .where('id', '=', Number(started.image.id.split('/')[1]))
      .executeTakeFirstOrThrow()
    assert.equal(row.upload_token_hash, createHash('sha256').update(started.token).digest('hex'))
  })

  it('receives gzip data without a token: available, size in MB rounded up, checksum, event', async () => {
    const owner = await createAccount(api)
    const started = await startUpload(api, owner, { label: 'disk', region: 'us-east' })
    const raw = rawImage(3 * MIB + 5)
    const data = gz(raw)
    const res = await putData(api, started.path, data)
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.id, started.image.id)
    assert.equal(res.body.status, 'available')
    assert.equal(res.body.size, 4)
    const view = await api.request({
      method: 'GET',
      url: `/v4/images/${started.image.id}`,
      headers: owner.headers,
    })
    assert.equal(view.body.status, 'available')
    assert.equal(view.body.size, 4)

    const id = Number(started.image.id.split('/')[1])
    const row = await api.db
      .selectFrom('images')
      .select(['checksum', 'stored_bytes', 'uncompressed_bytes', 'blob_key'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
    assert.equal(row.checksum, createHash('sha256').update(raw).digest('hex'))
    assert.equal(row.uncompressed_bytes, raw.length)
    assert.equal(row.stored_bytes, data.length)
    const stored = await api.app.blobs.get(row.blob_key as string)
    assert.ok(stored)
    assert.ok((await buffer(stored)).equals(data), 'the gzip data is kept as sent')

    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'image_upload' }) },
    })
    assert.equal(events.body.results, 1)
    const [event] = events.body.data
    assert.equal(event.status, 'finished')
    assert.equal(event.username, owner.user.username)
    assert.deepEqual(event.entity, {
      label: 'disk',
      id: started.image.id,
      type: 'image',
      url: `/v4/images/${started.image.id}`,
    })
  })

  it('rounds sizes up to whole MB', async () => {
    const owner = await createAccount(api)
    for (const [bytes, size] of [
      [1, 1],
      [MIB, 1],
      [MIB + 1, 2],
    ] as const) {
      const started = await startUpload(api, owner)
      const res = await putData(api, started.path, gz(rawImage(bytes)))
      assert.equal(res.body.size, size, String(bytes))
    }
  })

  it('accepts an empty raw image (a valid gzip of zero bytes): available, size 0', async () => {
    const owner = await createAccount(api)
    const started = await startUpload(api, owner)
    const res = await putData(api, started.path, gz(Buffer.alloc(0)))
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.status, 'available')
    assert.equal(res.body.size, 0)
    const image = await api.request({
      method: 'GET',
      url: `/v4/images/${started.image.id}`,
      headers: owner.headers,
    })
    assert.equal(image.body.status, 'available')
  })

  it('accepts what curl -T sends (no Content-Type), gzip content types, and a chunked stream', async () => {
    const owner = await createAccount(api)
    const bare = await startUpload(api, owner)
    const noType = await api.request({ method: 'PUT', url: bare.path, payload: gz(rawImage(2048)) })
    assert.equal(noType.status, 200, JSON.stringify(noType.body))

    const typed = await startUpload(api, owner)
    const gzipType = await putData(api, typed.path, gz(rawImage(2048)), {
      'content-type': 'application/gzip',
    })
    assert.equal(gzipType.status, 200)

    const chunked = await startUpload(api, owner)
    const data = gz(rawImage(2 * MIB, 'streamed'))
    const pieces = Array.from({ length: Math.ceil(data.length / 1000) }, (_, i) =>
      data.subarray(i * 1000, i * 1000 + 1000),
    )
    const res = await putData(api, chunked.path, Readable.from(pieces))
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.size, 2)
  })

  it('passes every byte of a large upload to the checks, whatever the sizes of its chunks', async () => {
    // Random data barely compresses, so about 20 MiB of gzip goes through the API thread's shared
    // ring (8 MiB) to the checking worker, wrapping around it several times in the middle of chunks.
    const owner = await createAccount(api)
    const started = await startUpload(api, owner)
    const raw = Buffer.concat([rawImage(512), randomBytes(20 * MIB)])
    const data = gz(raw)
    const chunks = function* () {
      for (let at = 0, size = 1; at < data.length; at += size, size = 1 + ((size * 7 + 100_003) % 300_007))
        yield data.subarray(at, at + size)
    }
    const res = await putData(api, started.path, Readable.from(chunks(), { objectMode: false }))
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const row = await api.db
      .selectFrom('images')
      .select(['checksum', 'uncompressed_bytes', 'stored_bytes'])
      .where('id', '=', Number(started.image.id.split('/')[1]))
      .executeTakeFirstOrThrow()
    assert.equal(row.uncompressed_bytes, raw.length)
    assert.equal(row.stored_bytes, data.length)
    assert.equal(row.checksum, createHash('sha256').update(raw).digest('hex'))
  })

  it('accepts a concatenated (multi-member) gzip', async () => {
    const owner = await createAccount(api)
    const started = await startUpload(api, owner)
    const raw = rawImage(4096)
    const res = await putData(
      api,
      started.path,
      Buffer.concat([gz(raw.subarray(0, 1000)), gz(raw.subarray(1000))]),
    )
    assert.equal(res.status, 200, JSON.stringify(res.body))
    const row = await api.db
      .selectFrom('images')
      .select('checksum')
      .where('id', '=', Number(started.image.id.split('/')[1]))
      .executeTakeFirstOrThrow()
    assert.equal(row.checksum, createHash('sha256').update(raw).digest('hex'))
  })

  it('keeps the URL secret out of the access log', async () => {
    const owner = await createAccount(api)
    const started = await startUpload(api, owner)
    await putData(api, started.path, gz(rawImage(1024)))
    const stream = new PassThrough()
    const pending = putData(api, (await startUpload(api, owner)).path, stream)
    stream.end(Buffer.from('not gzip at all'))
    await pending
    const lines = logLines.filter((l) => l.includes('image-uploads'))
    assert.ok(lines.length >= 2)
    assert.ok(
      lines.every((l) => l.includes('/image-uploads/:token')),
      lines.join('\n'),
    )
    assert.ok(logLines.every((l) => !l.includes(started.token)))
  })
})
