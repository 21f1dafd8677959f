import { createHash } from 'node:crypto'
import { Transform, Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGunzip } from 'node:zlib'
import { badRequest } from '../../common/errors.ts'
import { detectNonRawFormat, HEAD_BYTES, TAIL_BYTES } from './disk-image-formats.ts'

/**
 * The uncompressed side of an upload: gzip decompression, the size cap, the disk-format checks and
 * SHA-256. It runs in a child process of lower priority (image-inspection.process.ts), where the
 * gigabytes of short-lived output buffers cost the API's heap nothing and neither the inflate nor
 * the hashing takes cores from the API's threads.
 */

/**
 * The inspection's scheduling priority (nice): when cores are short the API's threads come first,
 * about nine to one; the lowest (19) starved uploads on a busy machine
 * (docs/decisions.md#image-upload-inspection-and-the-image-list).
 */
export const INSPECTION_NICE = 10

export interface InspectionResult {
  uncompressedBytes: number
  /** SHA-256 (hex) of the uncompressed disk image. */
  sha256: string
}

/**
 * zlib's default output chunk is 16 KiB; 1 MiB chunks cut the per-chunk overhead of hashing and
 * stream bookkeeping several times over on large images.
 */
const GUNZIP_CHUNK = 1024 * 1024

const KIB = 1024
const UNITS: Array<[number, string]> = [
  [KIB ** 3, 'GB'],
  [KIB ** 2, 'MB'],
  [KIB, 'KB'],
]

export function formatSize(bytes: number): string {
  for (const [size, unit] of UNITS) {
    if (bytes >= size) return `${Number((bytes / size).toFixed(2))} ${unit}`
  }
  return `${bytes} bytes`
}

const imageTooLarge = (limit: number) =>
  badRequest(`The uncompressed image must not exceed ${formatSize(limit)}`)

const notRaw = (format: string) =>
  badRequest(
    `Image data must be a gzip-compressed raw disk image (.img.gz); this is a ${format} image. Convert it first, for example: qemu-img convert -O raw disk.${format.startsWith('gzip') ? 'img.gz' : 'qcow2'} disk.img`,
  )

/** Keeps the last `size` bytes seen. */
class Tail {
  #data = Buffer.alloc(0)
  readonly #size: number

  constructor(size: number) {
    this.#size = size
  }

  push(chunk: Buffer): void {
    if (chunk.length >= this.#size) this.#data = Buffer.from(chunk.subarray(chunk.length - this.#size))
    else this.#data = Buffer.concat([this.#data, chunk]).subarray(-this.#size)
  }

  get data(): Buffer {
    return this.#data
  }
}

/**
 * Hands the compressed bytes to gunzip in as few writes as there is time for. A local socket
 * delivers 64 KiB reads; given those one at a time, zlib hands back outputs of under 100 KiB, and
 * the extra trips to its thread and the many small hashes made the inspection of random-ish data
 * take about a fifth longer than with 1 MiB inputs. Nothing is held back to make a batch: a write
 * passes on at once when gunzip is waiting for input, and the reads that arrive while it inflates
 * wait here (a readable side of no room makes them) and go on joined, as one write.
 */
class Coalesce extends Transform {
  constructor() {
    super({ writableHighWaterMark: GUNZIP_CHUNK, readableHighWaterMark: 0 })
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error: null, data: Buffer) => void) {
    done(null, chunk)
  }

  override _writev(chunks: Array<{ chunk: Buffer }>, done: (error?: Error | null) => void) {
    // Every piece is a Buffer (the socket's), so the encoding passed on means nothing.
    this._write(Buffer.concat(chunks.map((c) => c.chunk)), 'binary', done)
  }
}

/**
 * A stream to write the compressed bytes into, and the outcome: the result, or the first
 * refusal (an ApiError) or zlib error. A recognisable non-raw format is refused as soon as the
 * first bytes are out, not after the whole image.
 */
export function createInspection(maxUncompressedBytes: number): {
  input: Writable
  done: Promise<InspectionResult>
} {
  let uncompressedBytes = 0
  let head = Buffer.alloc(0)
  let headChecked = false
  const tail = new Tail(TAIL_BYTES)
  const hash = createHash('sha256')

  const check = new Writable({
    highWaterMark: GUNZIP_CHUNK,
    write(chunk: Buffer, _encoding, done) {
      uncompressedBytes += chunk.length
      if (uncompressedBytes > maxUncompressedBytes) return done(imageTooLarge(maxUncompressedBytes))
      if (!headChecked) {
        head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)])
        if (head.length >= HEAD_BYTES) {
          headChecked = true
          const format = detectNonRawFormat(head, Buffer.alloc(0))
          if (format) return done(notRaw(format))
        }
      }
      tail.push(chunk)
      hash.update(chunk)
      done()
    },
    final(done) {
      // An empty raw image (a valid gzip of zero bytes) is an image too, as on the real service.
      const format = detectNonRawFormat(head, tail.data)
      done(format ? notRaw(format) : null)
    },
  })

  const input = new Coalesce()
  const done = pipeline(input, createGunzip({ chunkSize: GUNZIP_CHUNK }), check).then(() => ({
    uncompressedBytes,
    sha256: hash.digest('hex'),
  }))
  return { input, done }
}
