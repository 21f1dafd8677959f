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
  /** The object's bytes as a stream, or undefined when there is none. */
  get(key: string): Promise<Readable | undefined>
  head(key: string): Promise<BlobInfo | undefined>
  /** Removes the object; true when there was one. Deleting a missing key is not an error. */
  delete(key: string): Promise<boolean>
}

export interface BlobInfo {
  size: number
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
