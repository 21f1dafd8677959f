import { readFileSync } from 'node:fs'
import { setPriority } from 'node:os'
import { parentPort, workerData } from 'node:worker_threads'
import { ApiError } from '../../common/errors.ts'
import { createInspection } from './image-inspection.ts'

/**
 * Worker thread running one upload's inspection. Messages in: `{ chunk }` (compressed bytes, in
 * order) and `{ end: true }`. Messages out: `{ ack }` once a chunk has been decompressed (the sender
 * keeps only a few in flight; a whole batch comes back with it, to be filled again), then
 * `{ done }` or `{ failed }`.
 */
export type InspectionMessage = { chunk: Uint8Array } | { end: true }

export type InspectionReply =
  | { ack: number; buffer?: Uint8Array }
  | { done: { uncompressedBytes: number; sha256: string } }
  | { failed: { refusal?: ConstructorParameters<typeof ApiError>; code?: string; message: string } }

const port = parentPort
if (port === null) throw new Error('image-inspection.worker.ts runs as a worker thread')

/**
 * Decompressing and hashing gigabytes is background work: on Linux this thread lowers its own
 * scheduling priority, so API requests on the main thread are served first when cores are short.
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

const { input, done } = createInspection(
  (workerData as { maxUncompressedBytes: number }).maxUncompressedBytes,
)

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
    const batch = message.chunk
    const chunk = Buffer.from(batch.buffer, batch.byteOffset, batch.byteLength)
    // Once decompressed, the batch goes back to the sender for reuse: fresh megabyte buffers for
    // every batch would keep the API thread's garbage collector busy with long pauses.
    input.write(chunk, () =>
      port.postMessage({ ack: chunk.length, buffer: batch } satisfies InspectionReply, [
        batch.buffer as ArrayBuffer,
      ]),
    )
  }
})
