import { type ChildProcess, spawn } from 'node:child_process'
import { setPriority } from 'node:os'
import { type Readable, Writable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import { ApiError, badRequest } from '../../common/errors.ts'
import type { InspectionReply } from './image-inspection.process.ts'
import { formatSize, INSPECTION_NICE, type InspectionResult } from './image-inspection.ts'

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

/** The inspection's program, as `.ts` when run from source and `.js` once built. */
const INSPECTION_PROGRAM = fileURLToPath(
  new URL(`./image-inspection.process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
)

/**
 * Compressed bytes taken from the request before it waits for the pipe and the store: enough to
 * keep the pipe full between turns of the event loop, few enough to bound memory per upload.
 */
const IN_FLIGHT_BYTES = 1024 * 1024

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
 * One upload's inspection in a child process of lower priority (image-inspection.process.ts),
 * fed through a pipe with its flow control. A process rather than a worker thread because zlib
 * inflates on libuv's thread pool, which a worker shares with the API thread: only a process of
 * its own takes the inflate off the API's priority as well as the hashing.
 */
class InspectionProcess {
  readonly result: Promise<InspectionResult>
  readonly #child: ChildProcess
  readonly #input: Writable
  #settled = false

  constructor(maxUncompressedBytes: number) {
    this.#child = spawn(process.execPath, [INSPECTION_PROGRAM, String(maxUncompressedBytes)], {
      stdio: ['pipe', 'ignore', 'inherit', 'ipc'],
    })
    this.#input = this.#child.stdin as Writable
    // Lowered from here at once, so that its start-up (loading and compiling its modules, a good
    // fraction of a second of CPU) does not compete with the API either; the child lowers the
    // threads it started before this took effect itself.
    if (this.#child.pid !== undefined) {
      try {
        setPriority(this.#child.pid, INSPECTION_NICE)
      } catch {
        // Not permitted, or already gone: the child lowers itself.
      }
    }
    // A write after the child stopped (it refused the data) fails; the refusal is the answer.
    this.#input.on('error', () => {})
    this.result = new Promise<InspectionResult>((resolve, reject) => {
      this.#child.on('message', (reply: InspectionReply) => {
        if ('done' in reply) resolve(reply.done)
        else {
          const { refusal, code, message } = reply.failed
          reject(refusal ? new ApiError(...refusal) : Object.assign(new Error(message), { code }))
        }
      })
      this.#child.on('error', reject)
      this.#child.on('exit', () => reject(new Error('the image inspection process stopped')))
    })
    this.result.then(
      () => this.#settle(),
      () => this.#settle(),
    )
  }

  /**
   * Sends chunks in one write; resolves once the pipe has taken all of them (their memory is free
   * then), or the inspection is over. A write that fails (the child stopped) resolves too: the
   * inspection's outcome is the answer.
   */
  write(chunks: readonly Buffer[]): Promise<void> {
    if (this.#settled || chunks.length === 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      this.#input.cork()
      const last = chunks.length - 1
      for (let i = 0; i < last; i++) this.#input.write(chunks[i])
      this.#input.write(chunks[last], () => resolve())
      this.#input.uncork()
    })
  }

  end(): Promise<InspectionResult> {
    if (!this.#settled) this.#input.end()
    return this.result
  }

  close(): void {
    if (this.#child.exitCode === null) this.#child.kill('SIGKILL')
  }

  #settle(): void {
    this.#settled = true
  }
}

/**
 * Receives an upload: counts and limits the compressed bytes, hands each batch of chunks to `copy`
 * (the blob store's writer) and, at the same time, to a child process that decompresses, checks and
 * hashes them. Memory stays flat: a few megabytes in flight at most. Throws an ApiError (4xx) as
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
  const inspection = new InspectionProcess(limits.maxUncompressedBytes)

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
  const closed = () => {
    if (!source.readableEnded) fail(Object.assign(new Error('upload interrupted'), { code: 'ECONNRESET' }))
  }
  const aborted = () => fail(signal?.reason as Error)
  source.on('error', fail)
  source.on('close', closed)
  signal?.addEventListener('abort', aborted, { once: true })
  // A refusal found by the inspection (a qcow2 header, the size cap) stops the upload at once.
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
