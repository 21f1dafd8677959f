import { Readable } from 'node:stream'
import { assertSafeKey, type BlobInfo, type BlobStore, type BlobWriter } from './blob-store.ts'

/** A blob store in process memory, for tests and throwaway servers. */
export class MemoryBlobStore implements BlobStore {
  readonly #objects = new Map<string, Buffer>()

  async put(key: string, body: Readable): Promise<BlobInfo> {
    assertSafeKey(key)
    const chunks: Buffer[] = []
    try {
      for await (const chunk of body) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk))
    } catch (error) {
      body.destroy()
      throw error
    }
    const data = Buffer.concat(chunks)
    this.#objects.set(key, data)
    return { size: data.length }
  }

  async create(key: string): Promise<BlobWriter> {
    assertSafeKey(key)
    let chunks: Buffer[] = []
    return {
      // Copied: the caller may free its chunks once this resolves.
      write: async (data) => {
        for (const chunk of data) chunks.push(Buffer.from(chunk))
      },
      commit: async () => {
        const data = Buffer.concat(chunks)
        this.#objects.set(key, data)
        return { size: data.length }
      },
      abort: async () => {
        chunks = []
      },
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    assertSafeKey(key)
    const data = this.#objects.get(key)
    return data === undefined ? undefined : Readable.from([data], { objectMode: false })
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    assertSafeKey(key)
    const data = this.#objects.get(key)
    return data === undefined ? undefined : { size: data.length }
  }

  async delete(key: string): Promise<boolean> {
    assertSafeKey(key)
    return this.#objects.delete(key)
  }

  /** How many objects are held (tests check that nothing partial was kept). */
  get size(): number {
    return this.#objects.size
  }
}
