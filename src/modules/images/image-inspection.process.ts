import { readdirSync, rmSync } from 'node:fs'
import { createServer, type Socket } from 'node:net'
import { setPriority } from 'node:os'
import { dirname } from 'node:path'
import { ApiError } from '../../common/errors.ts'
import { createInspection, INSPECTION_NICE } from './image-inspection.ts'

/**
 * The process that inspects uploads (uploads/inspection-service.ts starts one per API process and
 * keeps it). It listens on the local socket named by its first argument; each connection is one
 * upload: a header line (`{"maxUncompressedBytes":n}`), then the compressed bytes in order, ending
 * with the upload. The outcome goes back on the same connection as one JSON line, `{ done }` or
 * `{ failed }`. One long-lived process rather than one per upload: starting a process blocked the
 * API thread until the child had exec'd (tens of milliseconds on a busy machine, more the larger
 * the API's memory), and the child then spent a good fraction of a second loading its modules.
 */
export type InspectionReply =
  | { done: { uncompressedBytes: number; sha256: string } }
  | { failed: { refusal?: ConstructorParameters<typeof ApiError>; code?: string; message: string } }

export interface InspectionHeader {
  maxUncompressedBytes: number
}

/**
 * Lowers every thread of this process to INSPECTION_NICE. On Linux a priority belongs to a thread,
 * and threads started later (libuv's pool, where zlib inflates) inherit their creator's, so doing
 * it for each thread now covers the whole process; elsewhere the process id covers all of it.
 */
function lowerOwnPriority(): void {
  let tasks: string[]
  try {
    tasks = readdirSync('/proc/self/task')
  } catch {
    tasks = [String(process.pid)]
  }
  for (const task of tasks) {
    try {
      setPriority(Number(task), INSPECTION_NICE)
    } catch {
      // Not permitted: that thread keeps its priority.
    }
  }
}
lowerOwnPriority()

const send = process.send?.bind(process)
if (send === undefined) throw new Error('image-inspection.process.ts runs as a child with an IPC channel')
const address = process.argv[2]
if (address === undefined) throw new Error('usage: image-inspection.process.ts <socket path>')

function failure(error: unknown): InspectionReply {
  const e = error as Error & { code?: string }
  return {
    failed: {
      ...(error instanceof ApiError && { refusal: [error.code, error.errors] }),
      ...(e.code !== undefined && { code: e.code }),
      message: String(e.message),
    },
  }
}

/** Reads the header line, then feeds the rest of the connection to an inspection of its own. */
function inspect(socket: Socket): void {
  let header = Buffer.alloc(0)
  const answer = (reply: InspectionReply) => {
    // Whatever the uploader still sends is read and dropped until it hears the answer and stops.
    socket.resume()
    if (!socket.destroyed) socket.end(`${JSON.stringify(reply)}\n`)
  }
  let stopInspection = () => {}
  socket.on('error', () => socket.destroy())
  // The uploader gone before the end of its data: nothing is waiting for this inspection.
  socket.on('close', () => stopInspection())
  const onHeader = (chunk: Buffer) => {
    header = Buffer.concat([header, chunk])
    const end = header.indexOf(0x0a)
    if (end < 0) return
    socket.off('data', onHeader)
    socket.pause()
    const { maxUncompressedBytes } = JSON.parse(header.subarray(0, end).toString()) as InspectionHeader
    const { input, done } = createInspection(maxUncompressedBytes)
    stopInspection = () => input.destroy()
    done.then(
      (result) => answer({ done: result }),
      (error: unknown) => {
        socket.unpipe(input)
        answer(failure(error))
      },
    )
    if (end + 1 < header.length) socket.unshift(header.subarray(end + 1))
    socket.pipe(input)
  }
  socket.on('data', onHeader)
}

// allowHalfOpen: the uploader's end of data is not the end of the connection; the answer follows.
const server = createServer({ allowHalfOpen: true }, inspect)
const stop = () => {
  server.close()
  if (!address.startsWith('\\\\')) rmSync(dirname(address), { recursive: true, force: true })
  process.exit(0)
}
server.on('error', (error) => {
  process.stderr.write(`image inspection: ${error.message}\n`)
  stop()
})
// The API process may be gone before this listens (stopped as it started): the channel is closed
// then, and the failed send stops this instead of crashing it.
server.listen(address, () => send({ listening: true }, undefined, {}, (error) => error && stop()))
// The API process gone (killed), no one can connect any more: stop at once.
process.on('disconnect', stop)
