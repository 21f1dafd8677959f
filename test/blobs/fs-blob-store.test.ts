import assert from 'node:assert/strict'
import { mkdtemp, readdir, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough, Readable } from 'node:stream'
import { after, describe, it } from 'node:test'
import { FsBlobStore } from '../../src/blobs/fs-blob-store.ts'
import { blobStoreContract } from './blob-store.contract.ts'

describe('FsBlobStore', () => {
  const roots: string[] = []
  const newRoot = async () => {
    const root = await mkdtemp(join(tmpdir(), 'cloudplane-blobs-'))
    roots.push(root)
    return root
  }
  after(async () => {
    for (const root of roots) await rm(root, { recursive: true, force: true })
  })

  blobStoreContract('fs', async () => FsBlobStore.open(await newRoot()))

  it('keeps objects under the root and leaves no temporary file behind', async () => {
    const root = await newRoot()
    const store = await FsBlobStore.open(root)
    await store.put('images/7.img.gz', Readable.from([Buffer.from('data')]))
    assert.equal((await stat(join(root, 'images', '7.img.gz'))).size, 4)
    const failing = new PassThrough()
    const attempt = store.put('images/8.img.gz', failing)
    failing.write(Buffer.from('partial'))
    failing.destroy(new Error('cut'))
    await assert.rejects(attempt)
    assert.deepEqual(await readdir(join(root, '.tmp')), [])
  })

  it('two stores on one root (two processes) see each other’s objects', async () => {
    const root = await newRoot()
    const first = await FsBlobStore.open(root)
    const second = await FsBlobStore.open(root)
    await Promise.all([
      first.put('images/1.img.gz', Readable.from([Buffer.alloc(100_000, 1)])),
      second.put('images/2.img.gz', Readable.from([Buffer.alloc(50_000, 2)])),
    ])
    assert.deepEqual(await first.head('images/2.img.gz'), { size: 50_000 })
    assert.deepEqual(await second.head('images/1.img.gz'), { size: 100_000 })
    assert.equal(await second.delete('images/1.img.gz'), true)
    assert.equal(await first.head('images/1.img.gz'), undefined)
  })

  it('clears temporary files a crashed writer left behind, but not fresh ones', async () => {
    const root = await newRoot()
    await FsBlobStore.open(root)
    const stale = join(root, '.tmp', 'crashed.part')
    const fresh = join(root, '.tmp', 'in-flight.part')
    await writeFile(stale, 'half')
    await writeFile(fresh, 'half')
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000)
    await utimes(stale, dayAgo, dayAgo)
    await FsBlobStore.open(root)
    assert.deepEqual(await readdir(join(root, '.tmp')), ['in-flight.part'])
  })
})
