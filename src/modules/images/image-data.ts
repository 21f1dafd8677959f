import { type Readable, Writable } from 'node:stream'
import { Worker } from 'node:worker_threads'
import { ApiError, badRequest } from '../../common/errors.ts'
import { formatSize, type InspectionResult } from './image-inspection.ts'
import type { InspectionMessage, InspectionReply } from './image-inspection.worker.ts'

export interface UploadLimits {
  /** Largest gzip body accepted (the real service: 5 GB). */
  maxCompressedBytes: number
  /** Largest uncompressed image: stops a decompression bomb long before it fills a disk. */
  maxUncompressedBytes: number
  /**
   * Uploads inspected at once by this process, each in its own worker thread with its own ring
   * buffer; one more is refused (503) rather than queued, so that it holds no connection either.
   */
  maxConcurrentUploads: number
}

export interface ReceivedImageData extends InspectionResult {
  compressedBytes: number
}

export const uploadTooLarge = (limit: number) =>
  new ApiError('payload_too_large', [
    { reason: `Image data must not exceed ${formatSize(limit)} (gzip-compressed)` },
  ])

/** The worker's file, as `.ts` when run from source and `.js` once built. */
const WORKER_URL = new URL(
  `./image-inspection.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

/**
 * Compressed bytes go to the worker through one shared ring of this size, which bounds memory per
 * upload. Copying into shared memory allocates nothing per chunk: buffers handed between threads
 * count as new external memory on each side, and that churn made the API thread's garbage
 * collector run several times a second during an upload, stalling other requests.
 */
const RING_BYTES = 8 * 1024 * 1024

/** The worker is told of new bytes a megabyte at a time: one message per batch, not per read. */
const BATCH_BYTES = 1024 * 1024

/** Inspection workers running now in this process. */
let runningInspections = 0

const tooManyUploads = () =>
  new ApiError('unavailable', [{ reason: 'Too many image uploads are in progress; retry shortly' }])

/** One upload's inspection in its own worker thread, fed in order with flow control. */
class InspectionWorker {
  readonly result: Promise<InspectionResult>
  readonly #worker: Worker
  readonly #ring = new Uint8Array(new SharedArrayBuffer(RING_BYTES))
  /** Where the next byte goes. */
  #head = 0
  /** Bytes written into the ring that the worker has not been told of yet, ending at #head. */
  #pending = 0
  /** Bytes in the ring the worker has not consumed yet (told of or pending). */
  #inFlight = 0
  #sent = false
  #waiting: Array<() => void> = []
  #settled = false

  constructor(maxUncompressedBytes: number) {
    this.#worker = new Worker(WORKER_URL, { workerData: { maxUncompressedBytes, ring: this.#ring.buffer } })
    this.result = new Promise<InspectionResult>((resolve, reject) => {
      this.#worker.on('message', (reply: InspectionReply) => {
        if ('ack' in reply) {
          this.#inFlight -= reply.ack
          if (RING_BYTES - this.#inFlight >= BATCH_BYTES) this.#wake()
        } else if ('done' in reply) resolve(reply.done)
        else {
          const { refusal, code, message } = reply.failed
          reject(refusal ? new ApiError(...refusal) : Object.assign(new Error(message), { code }))
        }
      })
      this.#worker.on('error', reject)
      this.#worker.on('exit', () => reject(new Error('the image inspection worker stopped')))
    })
    this.result.then(
      () => this.#settle(),
      () => this.#settle(),
    )
  }

  /** Copies a chunk into the ring; resolves once all of it is in, waiting for room as needed. */
  async write(chunk: Buffer): Promise<void> {
    let offset = 0
    while (offset < chunk.length && !this.#settled) {
      const room = Math.min(RING_BYTES - this.#inFlight, RING_BYTES - this.#head)
      if (room === 0) {
        this.#announce()
        await new Promise<void>((resolve) => this.#waiting.push(resolve))
        continue
      }
      const n = Math.min(chunk.length - offset, room)
      this.#ring.set(chunk.subarray(offset, offset + n), this.#head)
      this.#head = (this.#head + n) % RING_BYTES
      this.#inFlight += n
      this.#pending += n
      offset += n
      // A run told to the worker never wraps: at the ring's end it is announced as it stands.
      if (this.#pending >= BATCH_BYTES || this.#head === 0) this.#announce()
    }
    // The first bytes go at once, so a file of the wrong format is refused without waiting.
    if (!this.#sent) this.#announce()
  }

  end(): Promise<InspectionResult> {
    if (!this.#settled) {
      this.#announce()
      this.#worker.postMessage({ end: true } satisfies InspectionMessage)
    }
    return this.result
  }

  close(): void {
    void this.#worker.terminate()
  }

  #announce(): void {
    if (this.#pending === 0) return
    const end = this.#head === 0 ? RING_BYTES : this.#head
    this.#worker.postMessage({
      offset: end - this.#pending,
      length: this.#pending,
    } satisfies InspectionMessage)
    this.#pending = 0
    this.#sent = true
  }

  #settle(): void {
    this.#settled = true
    this.#wake()
  }

  #wake(): void {
    for (const resolve of this.#waiting.splice(0)) resolve()
  }
}

/**
 * Receives an upload: counts and limits the compressed bytes, hands each chunk to `copy` (the blob
 * store's input) and to a worker that decompresses, checks and hashes it. Memory stays flat: a few
 * megabytes in flight at most. Throws an ApiError (4xx) as soon as the data is known to be
 * unacceptable: over a size limit, not gzip, truncated, or a disk format other than raw.
 * `copy` is neither ended nor destroyed here; the caller decides whether to keep what it got.
 * Aborting `signal` (the store failed) stops the work with the signal's reason.
 */
export async function receiveImageData(
  source: Readable,
  copy: NodeJS.WritableStream,
  limits: UploadLimits,
  signal?: AbortSignal,
): Promise<ReceivedImageData> {
  let compressedBytes = 0
  /** The first two bytes sent: gzip's magic number, or the sign that this is not gzip at all. */
  let magic = Buffer.alloc(0)
  let result: InspectionResult | undefined
  if (runningInspections >= limits.maxConcurrentUploads) throw tooManyUploads()
  runningInspections++
  const inspection = new InspectionWorker(limits.maxUncompressedBytes)

  const sink = new Writable({
    highWaterMark: 1024 * 1024,
    write(chunk: Buffer, _encoding, done) {
      if (magic.length < 2) magic = Buffer.concat([magic, chunk.subarray(0, 2 - magic.length)])
      compressedBytes += chunk.length
      if (compressedBytes > limits.maxCompressedBytes) return done(uploadTooLarge(limits.maxCompressedBytes))
      inspection.write(chunk).then(() => {
        // Backpressure from the store; if the store fails instead, `signal` ends this.
        if (copy.write(chunk)) done()
        else copy.once('drain', () => done())
      }, done)
    },
    final(done) {
      inspection.end().then((r) => {
        result = r
        done()
      }, done)
    },
  })

  const finished = new Promise<void>((resolve, reject) => {
    sink.on('finish', resolve)
    sink.on('error', reject)
  })
  // The request is piped in rather than made part of a pipeline: a failed pipeline destroys its
  // streams, and destroying the request would reset the connection before the 4xx could be sent.
  const fail = (error: Error) => sink.destroy(error)
  const closed = () => {
    if (!source.readableEnded) fail(Object.assign(new Error('upload interrupted'), { code: 'ECONNRESET' }))
  }
  const aborted = () => fail(signal?.reason as Error)
  source.on('error', fail)
  source.on('close', closed)
  signal?.addEventListener('abort', aborted, { once: true })
  // A refusal found in the worker (a qcow2 header, the size cap) stops the upload at once.
  inspection.result.catch(fail)
  source.pipe(sink)
  try {
    await finished
  } catch (error) {
    throw explain(error, compressedBytes, magic)
  } finally {
    source.unpipe(sink)
    source.off('error', fail)
    source.off('close', closed)
    signal?.removeEventListener('abort', aborted)
    inspection.close()
    runningInspections--
  }
  return { compressedBytes, ...(result as InspectionResult) }
}

/** Turns zlib's and the socket's errors into what the uploader needs to hear. */
function explain(error: unknown, compressedBytes: number, magic: Buffer): unknown {
  if (error instanceof ApiError) return error
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (code === 'Z_DATA_ERROR' || code === 'Z_BUF_ERROR') {
    if (compressedBytes === 0) {
      return badRequest('No image data was sent: PUT the gzip-compressed raw disk image as the request body')
    }
    if (magic[0] !== 0x1f || magic[1] !== 0x8b) {
      return badRequest('Image data must be gzip-compressed (.img.gz); this data is not gzip')
    }
    return badRequest(
      code === 'Z_BUF_ERROR'
        ? 'The gzip data ends before the end of the image (truncated upload?)'
        : 'The gzip data is corrupt',
    )
  }
  if (code === 'ECONNRESET' || code === 'ERR_STREAM_PREMATURE_CLOSE' || code === 'ECONNABORTED') {
    return badRequest('The upload was interrupted before all data arrived')
  }
  return error
}
