import { type Readable, Writable } from 'node:stream'
import { ApiError, badRequest } from '../../common/errors.ts'
import { formatSize, type InspectionResult } from './image-inspection.ts'
import { Inspection } from './uploads/inspection-service.ts'

export interface UploadLimits {
  /** Largest gzip body accepted (the real service: 5 GB). */
  maxCompressedBytes: number
  /** Largest uncompressed image: stops a decompression bomb long before it fills a disk. */
  maxUncompressedBytes: number
  /**
   * Uploads inspected at once by this process, each in a child process of its own; one more is
   * refused (503) rather than queued, so that it holds no connection either.
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

/**
 * Compressed bytes taken from the request before it waits for the pipe and the store: enough to
 * keep the pipe full between turns of the event loop, few enough to bound memory per upload. The
 * bytes of one batch are handled in one go on the event loop (about a millisecond per MiB), where
 * another request waits for them: a quarter of a MiB keeps that wait short, at the same upload rate
 * as a whole MiB.
 */
const IN_FLIGHT_BYTES = 256 * 1024

/** Where the compressed bytes go besides the inspection (the blob store's writer). */
export interface ChunkSink {
  /** Resolves once `chunks` are written and their memory is no longer needed. */
  write(chunks: readonly Buffer[]): Promise<void>
}

type DetachableArrayBuffer = ArrayBuffer & {
  readonly detached: boolean
  transfer(length: number): ArrayBuffer
}

/**
 * Gives a request chunk's memory back now. Each chunk of a request body is a fresh allocation
 * outside V8's heap that V8 frees only once a collection finds the chunk dead, and it counts such
 * memory as external memory pressure: about every 64 MiB received, it ran a full mark-compact of
 * the API's whole heap, marking on the event loop for up to a hundred milliseconds and more at a
 * time (twelve of them during one 200 MB upload). Detaching the chunk's ArrayBuffer frees it at
 * once, and the pressure never builds. Only a chunk that is the whole of its ArrayBuffer is freed.
 */
function free(chunk: Buffer): void {
  const memory = chunk.buffer as DetachableArrayBuffer
  if (!(memory instanceof ArrayBuffer) || memory.detached) return
  if (chunk.byteOffset === 0 && chunk.byteLength === memory.byteLength) memory.transfer(0)
}

/** Inspections running now in this process. */
let runningInspections = 0

const tooManyUploads = () =>
  new ApiError('unavailable', [{ reason: 'Too many image uploads are in progress; retry shortly' }])

/**
 * Receives an upload: counts and limits the compressed bytes, hands each batch of chunks to `copy`
 * (the blob store's writer) and, at the same time, to the inspection process, which decompresses,
 * checks and hashes them at a lower priority (uploads/inspection-service.ts). Memory stays flat: a few megabytes in flight at most. Throws an ApiError (4xx) as
 * soon as the data is known to be unacceptable: over a size limit, not gzip, truncated, or a disk
 * format other than raw; a failure of `copy` stops it with that failure. `copy` is neither
 * committed nor aborted here; the caller decides whether to keep what it got. Aborting `signal`
 * stops the work with the signal's reason. With `ownChunks` (the chunks of a real request, which
 * nothing else holds), each chunk's memory is freed once the pipe and `copy` are done with it.
 */
export async function receiveImageData(
  source: Readable,
  copy: ChunkSink,
  limits: UploadLimits,
  options: { signal?: AbortSignal; ownChunks?: boolean } = {},
): Promise<ReceivedImageData> {
  const { signal, ownChunks = false } = options
  let compressedBytes = 0
  /** The first two bytes sent: gzip's magic number, or the sign that this is not gzip at all. */
  let magic = Buffer.alloc(0)
  let result: InspectionResult | undefined
  if (runningInspections >= limits.maxConcurrentUploads) throw tooManyUploads()
  runningInspections++
  let inspection: Inspection
  try {
    inspection = await Inspection.open(limits.maxUncompressedBytes)
  } catch (error) {
    runningInspections--
    throw error
  }

  /** One batch: the pipe and the store take it side by side, and the next waits for both. */
  const take = (chunks: Buffer[], done: (error?: Error | null) => void) => {
    for (const chunk of chunks) {
      if (magic.length < 2) magic = Buffer.concat([magic, chunk.subarray(0, 2 - magic.length)])
      compressedBytes += chunk.length
    }
    if (compressedBytes > limits.maxCompressedBytes) return done(uploadTooLarge(limits.maxCompressedBytes))
    Promise.all([inspection.write(chunks), copy.write(chunks)]).then(() => {
      if (ownChunks) for (const chunk of chunks) free(chunk)
      done()
    }, done)
  }
  const sink = new Writable({
    highWaterMark: IN_FLIGHT_BYTES,
    write: (chunk: Buffer, _encoding, done) => take([chunk], done),
    writev: (entries, done) =>
      take(
        entries.map((entry) => entry.chunk as Buffer),
        done,
      ),
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
  const interrupted = () => fail(Object.assign(new Error('upload interrupted'), { code: 'ECONNRESET' }))
  const closed = () => {
    if (!source.readableEnded) interrupted()
  }
  const aborted = () => fail(signal?.reason as Error)
  source.on('error', fail)
  source.on('close', closed)
  signal?.addEventListener('abort', aborted, { once: true })
  // A refusal found by the inspection (a qcow2 header, the size cap) stops the upload at once.
  inspection.result.catch(fail)
  // The signal and the connection may have ended while the upload was being claimed and the
  // inspection opened, before anything listened: their events are past, and a pipe from a closed
  // request would never end.
  if (signal?.aborted) aborted()
  else if (source.destroyed) interrupted()
  else source.pipe(sink)
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
