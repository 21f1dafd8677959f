import { describe } from 'node:test'
import { MemoryBlobStore } from '../../src/blobs/memory-blob-store.ts'
import { blobStoreContract } from './blob-store.contract.ts'

describe('MemoryBlobStore', () => {
  blobStoreContract('memory', async () => new MemoryBlobStore())
})
