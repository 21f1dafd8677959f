import { createHash, randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { assertSafeKey, type BlobInfo, type BlobStore, storageFailure } from './blob-store.ts'

/** Temporary files live inside the root (so a rename never crosses filesystems) under a name no key can take. */
const TMP_DIR = '.tmp'
/**
 * A temporary file untouched this long belongs to a process that died mid-write (a live writer
 * touches its file with every chunk, and a stalled upload is cut long before).
 */
const STALE_TMP_MS = 3600 * 1000
/** Only the server's own user reads image data. */
const FILE_MODE = 0o600
const DIR_MODE = 0o700
const WRITE_BUFFER = 1024 * 1024

const isMissing = (error: unknown) => {
  const code = (error as NodeJS.ErrnoException | null)?.code
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR'
}

/**
 * A temporary file's name starts with a digest of its key, so deleting a key also removes what
 * interrupted writes of it left behind.
 */
const partialPrefix = (key: string) => `${createHash('sha256').update(key).digest('hex').slice(0, 32)}.`

/**
 * Blobs as files under one directory. Every write goes to a fresh temporary file, is flushed to
 * disk, then renamed into place: readers never see a partial object, and any number of processes
 * (on one host, or on hosts sharing the volume) can use the same root.
 */
export class FsBlobStore implements BlobStore {
  readonly root: string

  private constructor(root: string) {
    this.root = root
  }

  /** Opens (creating) the root and clears temporary files that crashed writers left behind. */
  static async open(root: string): Promise<FsBlobStore> {
    const store = new FsBlobStore(root)
    try {
      await mkdir(join(root, TMP_DIR), { recursive: true, mode: DIR_MODE })
      await store.#sweepStaleTemporaryFiles()
    } catch (error) {
      throw storageFailure(error)
    }
    return store
  }

  async put(key: string, body: Readable): Promise<BlobInfo> {
    const target = this.#path(key)
    const tmp = join(this.root, TMP_DIR, `${partialPrefix(key)}${randomUUID()}.part`)
    try {
      const out = createWriteStream(tmp, {
        flags: 'wx',
        flush: true,
        highWaterMark: WRITE_BUFFER,
        mode: FILE_MODE,
      })
      await pipeline(body, out)
      await mkdir(dirname(target), { recursive: true, mode: DIR_MODE })
      await rename(tmp, target)
      return { size: out.bytesWritten }
    } catch (error) {
      body.destroy()
      await unlink(tmp).catch(() => {})
      throw storageFailure(error)
    }
  }

  async get(key: string): Promise<Readable | undefined> {
    const path = this.#path(key)
    try {
      // Opened first, so a missing object is `undefined` rather than a stream that errors later;
      // an open file stays readable even if it is deleted or replaced meanwhile.
      const handle = await open(path, 'r')
      if (!(await handle.stat()).isFile()) {
        await handle.close()
        return undefined
      }
      return handle.createReadStream({ highWaterMark: WRITE_BUFFER })
    } catch (error) {
      if (isMissing(error)) return undefined
      throw storageFailure(error)
    }
  }

  async head(key: string): Promise<BlobInfo | undefined> {
    try {
      const info = await stat(this.#path(key))
      return info.isFile() ? { size: info.size } : undefined
    } catch (error) {
      if (isMissing(error)) return undefined
      throw storageFailure(error)
    }
  }

  async delete(key: string): Promise<boolean> {
    const path = this.#path(key)
    await this.#deletePartials(key)
    try {
      await unlink(path)
      return true
    } catch (error) {
      if (isMissing(error)) return false
      throw storageFailure(error)
    }
  }

  /** Temporary files of `key`: a live writer of it loses its data, as a delete means it to. */
  async #deletePartials(key: string): Promise<void> {
    const prefix = partialPrefix(key)
    const dir = join(this.root, TMP_DIR)
    const names = await readdir(dir).catch(() => [] as string[])
    for (const name of names) {
      if (name.startsWith(prefix)) await unlink(join(dir, name)).catch(() => {})
    }
  }

  #path(key: string): string {
    assertSafeKey(key)
    return join(this.root, ...key.split('/'))
  }

  async #sweepStaleTemporaryFiles(): Promise<void> {
    const dir = join(this.root, TMP_DIR)
    const cutoff = Date.now() - STALE_TMP_MS
    for (const name of await readdir(dir)) {
      const path = join(dir, name)
      const info = await stat(path).catch(() => undefined)
      if (info?.isFile() && info.mtimeMs < cutoff) await unlink(path).catch(() => {})
    }
  }
}
