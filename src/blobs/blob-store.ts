import type { Readable } from 'node:stream'

/**
 * Storage for opaque binary objects (image data), behind an interface small enough for an object
 * store to implement later. Keys are opaque paths such as `images/12/data.gz`; `assertSafeKey`
 * keeps every key inside the store's root.
 */
export interface BlobStore {
  /**
   * Stores the stream under `key`. Resolves once the object is complete and durable; until then
   * readers see the previous object or none. If the stream fails (or is destroyed), it rejects and
   * nothing of it is kept.
   */
  put(key: string, body: Readable): Promise<BlobInfo>
  /**
   * Starts an object under `key` that the caller writes chunk by chunk: the same promise as `put`
   * (nothing visible before `commit`, nothing kept after `abort`), for a caller that must know
   * when each chunk has been written out (an upload frees its chunks then, see image-data.ts).
   */
  create(key: string): Promise<BlobWriter>
  /** The object's bytes as a stream, or undefined when there is none. */
  get(key: string): Promise<Readable | undefined>
  head(key: string): Promise<BlobInfo | undefined>
  /**
   * Removes the object, and whatever interrupted writes of it left; true when there was an
   * object. Deleting a missing key is not an error.
   */
  delete(key: string): Promise<boolean>
}

export interface BlobInfo {
  size: number
}

/** An object being written: chunks in order, then `commit` or `abort`, once. */
export interface BlobWriter {
  /**
   * Appends the chunks. Resolves once the store is done with their memory (written out, or
   * copied), so the caller may reuse or free it; one write at a time. After a rejection the
   * writer can only be aborted.
   */
  write(chunks: readonly Buffer[]): Promise<void>
  /** Completes the object: resolves once it is durable and readers see it. */
  commit(): Promise<BlobInfo>
  /** Drops what was written: nothing of it is kept, and the previous object stays. Never rejects. */
  abort(): Promise<void>
}

export class UnsafeBlobKeyError extends Error {
  constructor(key: string) {
    super(`unsafe blob key: ${JSON.stringify(key)}`)
    this.name = 'UnsafeBlobKeyError'
  }
}

const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,127}$/
const MAX_SEGMENTS = 8

/**
 * Slash-separated segments of letters, digits, `.`, `_` and `-`, none of them `.` or `..` and none
 * starting with a dot (so no hidden names that could meet the store's own temporary files): such
 * a key cannot name anything outside the root on any filesystem.
 */
export function assertSafeKey(key: string): void {
  const segments = key.split('/')
  if (segments.length > MAX_SEGMENTS || !segments.every((s) => SEGMENT.test(s))) {
    throw new UnsafeBlobKeyError(key)
  }
}

/**
 * The store itself failed (a full disk, an I/O error, a lost volume), as opposed to the data
 * handed to it: the API answers 507 or 503 with a reason rather than a bare 500.
 */
export class BlobStoreError extends Error {
  readonly code: string | undefined
  constructor(cause: NodeJS.ErrnoException) {
    super(`blob store failure: ${cause.message}`, { cause })
    this.name = 'BlobStoreError'
    this.code = cause.code
  }

  /** Out of space or over quota: retrying will not help until someone frees some. */
  get outOfSpace(): boolean {
    return this.code === 'ENOSPC' || this.code === 'EDQUOT'
  }
}

/**
 * Wraps an operating-system error of the store's own files; anything else (the failure of the
 * stream being stored, which the caller explains) passes unchanged.
 */
export function storageFailure(error: unknown): unknown {
  const errno = error as NodeJS.ErrnoException
  if (error instanceof Error && typeof errno.code === 'string' && typeof errno.syscall === 'string') {
    return new BlobStoreError(errno)
  }
  return error
}
