import assert from 'node:assert/strict'
import { once } from 'node:events'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { type BlobInfo, type BlobWriter, storageFailure } from '../../../src/blobs/blob-store.ts'
import { FsBlobStore } from '../../../src/blobs/fs-blob-store.ts'
import { MemoryBlobStore } from '../../../src/blobs/memory-blob-store.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { gz, putData, rawImage, startUpload, uploadState } from './image-helpers.ts'

const diskFull = () =>
  storageFailure(
    Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', syscall: 'write' }),
  )

/** A store whose disk filled up: it fails the write as the filesystem store would. */
class FullBlobStore extends MemoryBlobStore {
  override async put(_key: string, body: Readable): Promise<BlobInfo> {
    // Reads, as a store does, until the write that finds the disk full.
    body.on('error', () => {})
    await once(body, 'data')
    throw diskFull()
  }

  override async create(key: string): Promise<BlobWriter> {
    const writer = await super.create(key)
    return { ...writer, write: async () => Promise.reject(diskFull()) }
  }
}

describe('image upload: a failing blob store', () => {
  describe('out of space', () => {
    const api = useTestApp({ blobStore: new FullBlobStore() })

    it('answers 507 with a reason, and the URL stays usable', async () => {
      const owner = await createAccount(api)
      const upload = await startUpload(api, owner)
      const res = await putData(api, upload.path, gz(rawImage(8192)))
      assert.equal(res.status, 507)
      assert.deepEqual(res.body, { errors: [{ reason: 'Insufficient storage' }] })
      assert.equal(await uploadState(api, upload.image.id), 'waiting')
    })
  })

  describe('an I/O failure of the filesystem store', () => {
    let dir: string
    let store: FsBlobStore
    // Before the app's own hook, which takes the store.
    before(async () => {
      dir = await mkdtemp(join(tmpdir(), 'cloudplane-blobs-'))
      store = await FsBlobStore.open(dir)
      // Its folder of temporary files replaced by a file: every write fails with ENOTDIR.
      await rm(join(dir, '.tmp'), { recursive: true })
      await writeFile(join(dir, '.tmp'), '')
    })
    after(() => rm(dir, { recursive: true, force: true }))
    const api = useTestApp(() => ({ blobStore: store }))

    it('answers 503 with a reason and Retry-After, not a bare 500', async () => {
      const owner = await createAccount(api)
      const upload = await startUpload(api, owner)
      const res = await putData(api, upload.path, gz(rawImage(8192)))
      assert.equal(res.status, 503)
      assert.deepEqual(res.body, { errors: [{ reason: 'Image storage is unavailable; retry shortly' }] })
      assert.ok(res.headers['retry-after'])
    })
  })
})
