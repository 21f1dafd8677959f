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
}

export interface ReceivedImageData extends InspectionResult {
  compressedBytes: number
}

export const uploadTooLarge = (limit: number) =>
  new ApiError('payload_too_large', [
    { reason: `Image data must not exceed ${formatSize(limit)} (gzip-compressed)` },
  ])

/** Compressed bytes sent to the worker but not yet decompressed: bounds memory per upload. */
const MAX_IN_FLIGHT = 4 * 1024 * 1024

/** The worker's file, as `.ts` when run from source and `.js` once built. */
const WORKER_URL = new URL(
  `./image-inspection.worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`,
  import.meta.url,
)

/**
 * Compressed bytes are handed to the worker in batches of this size: one copy and one message per
 * megabyte instead of per network read (64 KiB), which keeps the API thread's share of the work small.
 */
const BATCH_BYTES = 1024 * 1024

/** One upload's inspection in its own worker thread, fed in order with flow control. */
class InspectionWorker {
  readonly result: Promise<InspectionResult>
  readonly #worker: Worker
  #batch = new Uint8Array(BATCH_BYTES)
  /** Batches the worker has finished with, filled again rather than allocated anew. */
  readonly #spare: Uint8Array[] = []
  #batched = 0
  #sent = false
  #inFlight = 0
  #waiting: Array<() => void> = []
  #settled = false

  constructor(maxUncompressedBytes: number) {
    this.#worker = new Worker(WORKER_URL, { workerData: { maxUncompressedBytes } })
    this.result = new Promise<InspectionResult>((resolve, reject) => {
      this.#worker.on('message', (reply: InspectionReply) => {
        if ('ack' in reply) {
          this.#inFlight -= reply.ack
          if (reply.buffer?.byteLength === BATCH_BYTES)
            this.#spare.push(reply.buffer as Uint8Array<ArrayBuffer>)
          if (this.#inFlight <= MAX_IN_FLIGHT) this.#wake()
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

  /** Queues a chunk (copied); resolves when there is room for more. */
  async write(chunk: Buffer): Promise<void> {
    if (this.#settled) return
    let offset = 0
    while (offset < chunk.length) {
      const n = Math.min(chunk.length - offset, BATCH_BYTES - this.#batched)
      this.#batch.set(chunk.subarray(offset, offset + n), this.#batched)
      this.#batched += n
      offset += n
      if (this.#batched === BATCH_BYTES) this.#flush()
    }
    // The first bytes go at once, so a file of the wrong format is refused without waiting.
    if (!this.#sent) this.#flush()
    if (this.#inFlight > MAX_IN_FLIGHT) await new Promise<void>((resolve) => this.#waiting.push(resolve))
  }

  end(): Promise<InspectionResult> {
    if (!this.#settled) {
      this.#flush()
      this.#worker.postMessage({ end: true } satisfies InspectionMessage)
    }
    return this.result
  }

  close(): void {
    void this.#worker.terminate()
  }

  #flush(): void {
    if (this.#batched === 0) return
    const full = this.#batched === BATCH_BYTES
    // A full batch is handed over whole; a partial one is copied and the buffer used again.
    const chunk = full ? this.#batch : this.#batch.slice(0, this.#batched)
    this.#worker.postMessage({ chunk } satisfies InspectionMessage, [chunk.buffer])
    this.#inFlight += chunk.length
    this.#sent = true
    if (full)
      this.#batch = (this.#spare.pop() as Uint8Array<ArrayBuffer> | undefined) ?? new Uint8Array(BATCH_BYTES)
    this.#batched = 0
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
