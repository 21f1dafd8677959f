import { readdirSync } from 'node:fs'
import { setPriority } from 'node:os'
import { ApiError } from '../../common/errors.ts'
import { createInspection, INSPECTION_NICE } from './image-inspection.ts'

/**
 * A child process running one upload's inspection (image-data.ts starts it). The compressed bytes
 * arrive on stdin, in order, ending with the upload; the outcome leaves on the IPC channel as one
 * `{ done }` or `{ failed }`, after which the process exits.
 */
export type InspectionReply =
  | { done: { uncompressedBytes: number; sha256: string } }
  | { failed: { refusal?: ConstructorParameters<typeof ApiError>; code?: string; message: string } }

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

const reply = (message: InspectionReply) =>
  new Promise<void>((resolve) => {
    send(message, undefined, {}, () => resolve())
  })

const { input, done } = createInspection(Number(process.argv[2]))

done
  .then(
    (result) => reply({ done: result }),
    (error: unknown) => {
      const e = error as Error & { code?: string }
      return reply({
        failed: {
          ...(error instanceof ApiError && { refusal: [error.code, error.errors] }),
          ...(e.code !== undefined && { code: e.code }),
          message: String(e.message),
        },
      })
    },
  )
  .finally(() => process.exit(0))

// The parent gone (killed), the inspection has no one to answer: stop at once.
process.on('disconnect', () => process.exit(0))
process.stdin.pipe(input)
