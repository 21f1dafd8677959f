import { createHash, randomUUID } from 'node:crypto'
import { type FileHandle, mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import type { Readable } from 'node:stream'
import {
  assertSafeKey,
  type BlobInfo,
  type BlobStore,
  type BlobWriter,
  storageFailure,
} from './blob-store.ts'

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
const READ_BUFFER = 1024 * 1024

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
 * disk, then renamed into place (and the directory flushed): readers never see a partial object, and any number of processes
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
    // Heard while the file opens; the loop below then throws the stream's error itself.
    body.on('error', () => {})
    const writer = await this.create(key).catch((error: unknown) => {
      body.destroy()
      throw error
    })
    try {
      for await (const chunk of body) await writer.write([chunk as Buffer])
    } catch (error) {
      body.destroy()
      await writer.abort()
      throw storageFailure(error)
    }
    return writer.commit()
  }

  async create(key: string): Promise<BlobWriter> {
    const target = this.#path(key)
    const tmp = join(this.root, TMP_DIR, `${partialPrefix(key)}${randomUUID()}.part`)
    try {
      return new FileWriter(await open(tmp, 'wx', FILE_MODE), tmp, target)
    } catch (error) {
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
      return handle.createReadStream({ highWaterMark: READ_BUFFER })
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

/**
 * One object being written to its temporary file through a file handle, each write awaited, so
 * the caller learns when the store is done with a chunk's memory (a write stream answers once the
 * chunk is queued). The file's data is flushed before the rename, and the directory after it: an
 * acknowledged object survives a power cut, under its name.
 */
class FileWriter implements BlobWriter {
  readonly #handle: FileHandle
  readonly #tmp: string
  readonly #target: string
  #size = 0
  #closed = false

  constructor(handle: FileHandle, tmp: string, target: string) {
    this.#handle = handle
    this.#tmp = tmp
    this.#target = target
  }

  async write(chunks: readonly Buffer[]): Promise<void> {
    try {
      await writeAll(this.#handle, chunks)
    } catch (error) {
      throw storageFailure(error)
    }
    for (const chunk of chunks) this.#size += chunk.length
  }

  async commit(): Promise<BlobInfo> {
    try {
      // The data, and the size needed to read it back; timestamps may lag.
      await this.#handle.datasync()
      await this.#close()
      const made = await mkdir(dirname(this.#target), { recursive: true, mode: DIR_MODE })
      await rename(this.#tmp, this.#target)
      await syncDirectories(dirname(this.#target), made)
    } catch (error) {
      await this.abort()
      throw storageFailure(error)
    }
    return { size: this.#size }
  }

  async abort(): Promise<void> {
    await this.#close().catch(() => {})
    await unlink(this.#tmp).catch(() => {})
  }

  async #close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    await this.#handle.close()
  }
}

/** Writes every byte of `chunks` at the file's position, going on after a short write. */
async function writeAll(handle: FileHandle, chunks: readonly Buffer[]): Promise<void> {
  let rest = chunks.filter((chunk) => chunk.length > 0)
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest)
    if (bytesWritten === 0) throw Object.assign(new Error('short write'), { code: 'EIO', syscall: 'writev' })
    const left: Buffer[] = []
    for (const chunk of rest) {
      if (bytesWritten >= chunk.length) bytesWritten -= chunk.length
      else {
        left.push(bytesWritten > 0 ? chunk.subarray(bytesWritten) : chunk)
        bytesWritten = 0
      }
    }
    rest = left
  }
}

/**
 * Flushes the directory that received the rename and, when mkdir made new directories on the way
 * (`made` is the first), the ones above up to the existing one that holds their names, so that
 * each new name is on the disk too.
 */
async function syncDirectories(dir: string, made: string | undefined): Promise<void> {
  const top = made === undefined ? dir : dirname(made)
  const dirs = [dir]
  for (let d = dir; d !== top && dirname(d) !== d; ) {
    d = dirname(d)
    dirs.push(d)
  }
  for (const d of dirs) {
    const handle = await open(d, 'r')
    try {
      await handle.sync()
    } finally {
      await handle.close()
    }
  }
}
