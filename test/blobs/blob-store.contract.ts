import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { PassThrough, Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { it } from 'node:test'
import { type BlobStore, UnsafeBlobKeyError } from '../../src/blobs/blob-store.ts'
import { waitFor } from '../helpers/wait-for.ts'

/**
 * What every BlobStore must do, run against each implementation (and any object-store backend
 * added later): atomic puts, nothing kept from a failed stream, and keys that cannot escape.
 */
export function blobStoreContract(name: string, open: () => Promise<BlobStore>): void {
  const key = () => `images/${randomBytes(6).toString('hex')}.img.gz`

  it(`${name}: puts a stream and gets the same bytes back`, async () => {
    const store = await open()
    const k = key()
    const data = randomBytes(3 * 1024 * 1024 + 17)
    const chunks = [data.subarray(0, 1000), data.subarray(1000, 2_000_000), data.subarray(2_000_000)]
    assert.deepEqual(await store.put(k, Readable.from(chunks)), { size: data.length })
    assert.deepEqual(await store.head(k), { size: data.length })
    const stream = await store.get(k)
    assert.ok(stream)
    assert.ok((await buffer(stream)).equals(data))
  })

  it(`${name}: stores an empty object`, async () => {
    const store = await open()
    const k = key()
    assert.deepEqual(await store.put(k, Readable.from([])), { size: 0 })
    assert.deepEqual(await store.head(k), { size: 0 })
    const stream = await store.get(k)
    assert.ok(stream)
    assert.equal((await buffer(stream)).length, 0)
  })

  it(`${name}: a missing key is undefined for get and head, false for delete`, async () => {
    const store = await open()
    const k = key()
    assert.equal(await store.get(k), undefined)
    assert.equal(await store.head(k), undefined)
    assert.equal(await store.delete(k), false)
  })

  it(`${name}: replaces an object and deletes it`, async () => {
    const store = await open()
    const k = key()
    await store.put(k, Readable.from([Buffer.from('first version')]))
    await store.put(k, Readable.from([Buffer.from('second')]))
    const stream = await store.get(k)
    assert.ok(stream)
    assert.equal((await buffer(stream)).toString(), 'second')
    assert.equal(await store.delete(k), true)
    assert.equal(await store.head(k), undefined)
    assert.equal(await store.delete(k), false)
  })

  it(`${name}: a stream that fails keeps nothing, and the previous object stays`, async () => {
    const store = await open()
    const k = key()
    await store.put(k, Readable.from([Buffer.from('kept')]))
    const body = new PassThrough()
    const putting = store.put(k, body)
    body.write(randomBytes(64 * 1024))
    body.destroy(new Error('client went away'))
    await assert.rejects(putting, /client went away/)
    const stream = await store.get(k)
    assert.ok(stream)
    assert.equal((await buffer(stream)).toString(), 'kept')

    const fresh = key()
    const failing = new PassThrough()
    const attempt = store.put(fresh, failing)
    failing.write(Buffer.from('partial'))
    failing.destroy(new Error('cut'))
    await assert.rejects(attempt, /cut/)
    assert.equal(await store.head(fresh), undefined, 'nothing partial under the new key')
  })

  it(`${name}: an object is not visible before its stream has ended`, async () => {
    const store = await open()
    const k = key()
    const body = new PassThrough()
    const putting = store.put(k, body)
    body.write(randomBytes(1024))
    // Once the store holds the first part, the object could be visible if it were published early.
    await waitFor(() => body.writableLength === 0 && body.readableLength === 0, {
      message: 'the store to take the first part',
    })
    assert.equal(await store.head(k), undefined)
    body.end(randomBytes(1024))
    await putting
    assert.deepEqual(await store.head(k), { size: 2048 })
  })

  it(`${name}: refuses keys that could escape the root or hide files`, async () => {
    const store = await open()
    const bad = [
      '',
      '../outside',
      'images/../../etc/passwd',
      '/absolute',
      'images//double',
      'images/',
      '.hidden',
      'images/.tmp',
      'a\\b',
      'images/..',
      'nul\u0000byte',
      'space here',
      `${'x'.repeat(200)}`,
      'a/b/c/d/e/f/g/h/i',
    ]
    for (const k of bad) {
      await assert.rejects(store.put(k, Readable.from([Buffer.from('x')])), UnsafeBlobKeyError, k)
      await assert.rejects(store.get(k), UnsafeBlobKeyError, k)
      await assert.rejects(store.head(k), UnsafeBlobKeyError, k)
      await assert.rejects(store.delete(k), UnsafeBlobKeyError, k)
    }
  })
}
