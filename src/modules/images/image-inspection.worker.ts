import { readFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { ApiError } from '../../common/errors.ts'
import { createInspection } from './image-inspection.ts'

/**
 * Worker thread running one upload's inspection. The compressed bytes arrive in a ring of shared
 * memory (`workerData.ring`); messages in: `{ offset, length }` (the next run of bytes in the ring,
 * in order) and `{ end: true }`. Messages out: `{ ack }` once a run has been decompressed and its
 * part of the ring may be written again, then `{ done }` or `{ failed }`.
 */
export type InspectionMessage = { offset: number; length: number } | { end: true }

export type InspectionReply =
  | { ack: number }
  | { done: { uncompressedBytes: number; sha256: string } }
  | { failed: { refusal?: ConstructorParameters<typeof ApiError>; code?: string; message: string } }

const port = parentPort
if (port === null) throw new Error('image-inspection.worker.ts runs as a worker thread')

/**
 * Hashing gigabytes is background work: on Linux this thread lowers its own scheduling priority,
 * so API requests on the main thread are served first when cores are short. (zlib's inflate runs
 * on libuv's thread pool, shared with the process, and keeps its normal priority.)
 */
function lowerOwnPriority(): void {
  try {
    const tid = Number(readFileSync('/proc/thread-self/stat', 'utf8').split(' ')[0])
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, 10)
  } catch {
    // Not Linux, or not permitted: run at normal priority.
  }
}
lowerOwnPriority()
const post = (reply: InspectionReply) => port.postMessage(reply)

const { maxUncompressedBytes, ring } = workerData as {
  maxUncompressedBytes: number
  ring: SharedArrayBuffer
}
const { input, done } = createInspection(maxUncompressedBytes)

done.then(
  (result) => post({ done: result }),
  (error: unknown) => {
    const e = error as Error & { code?: string }
    post({
      failed: {
        ...(error instanceof ApiError && { refusal: [error.code, error.errors] }),
        ...(e.code !== undefined && { code: e.code }),
        message: String(e.message),
      },
    })
  },
)

port.on('message', (message: InspectionMessage) => {
  if ('end' in message) input.end()
  else {
    // zlib has consumed a chunk when its write callback runs, so its bytes may then be overwritten.
    const { offset, length } = message
    input.write(Buffer.from(ring, offset, length), () => post({ ack: length }))
  }
})
