import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { setPriority, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ApiError } from '../../../common/errors.ts'
import type { InspectionHeader, InspectionReply } from '../image-inspection.process.ts'
import { INSPECTION_NICE, type InspectionResult } from '../image-inspection.ts'

/** The inspection's program, as `.ts` when run from source and `.js` once built. */
const PROGRAM = fileURLToPath(
  new URL(`../image-inspection.process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
)

const stopped = () => new Error('the image inspection process stopped')

/**
 * A local socket only this user can reach: a directory of its own (mode 0700) on POSIX systems, a
 * named pipe with an unguessable name on Windows.
 */
function privateAddress(): { address: string; dir?: string } {
  if (process.platform === 'win32') return { address: `\\\\.\\pipe\\cloudplane-inspection-${randomUUID()}` }
  const dir = mkdtempSync(join(tmpdir(), 'cloudplane-inspection-'))
  return { address: join(dir, 'socket'), dir }
}

interface InspectionProcess {
  address: Promise<string>
  stop(): void
}

/**
 * Starts the inspection process, at nice 10 from the start; its address resolves once it listens.
 * It is unreferenced: it never keeps this process alive, and it stops when this process is gone
 * (its IPC channel closes).
 */
function startProcess(onExit: () => void): InspectionProcess {
  const { address, dir } = privateAddress()
  const child = spawn(process.execPath, [PROGRAM, address], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
  // Lowered from here at once, so that its start-up (loading and compiling its modules, a good
  // fraction of a second of CPU) does not compete with the API either; the child lowers the
  // threads it started before this took effect itself.
  if (child.pid !== undefined) {
    try {
      setPriority(child.pid, INSPECTION_NICE)
    } catch {
      // Not permitted, or already gone: the child lowers itself.
    }
  }
  child.unref()
  const listening = new Promise<string>((resolve, reject) => {
    // The channel holds this process open only until the child listens.
    child.once('message', () => {
      child.channel?.unref()
      resolve(address)
    })
    child.once('error', reject)
    child.once('exit', () => {
      onExit()
      if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
      reject(stopped())
    })
  })
  listening.catch(() => {})
  return { address: listening, stop: () => child.kill('SIGKILL') }
}

let current: InspectionProcess | undefined

/** This process's inspection process, started (again, after it stopped) when needed. */
function inspectionProcess(): InspectionProcess {
  if (current === undefined) {
    const started = startProcess(() => {
      if (current === started) current = undefined
    })
    current = started
  }
  return current
}

/** Connects to the inspection process; one that cannot be reached is replaced, once. */
async function connectToInspection(): Promise<Socket> {
  for (let attempt = 1; ; attempt++) {
    const inspector = inspectionProcess()
    try {
      const socket = connect(await inspector.address)
      await once(socket, 'connect')
      return socket
    } catch (error) {
      // Stopped (killed, crashed) before its exit was noticed, or not listening.
      if (current === inspector) current = undefined
      inspector.stop()
      if (attempt === 2) throw error
    }
  }
}

/**
 * Starts the inspection process ahead of the first upload, so that no upload waits for it; a
 * failure here is left for the first upload to meet (and report).
 */
export function prepareInspections(): void {
  inspectionProcess()
}

/**
 * One upload's inspection: a connection to the inspection process, fed with the compressed bytes
 * with the socket's flow control, answering with the result or the refusal.
 */
export class Inspection {
  readonly result: Promise<InspectionResult>
  readonly #socket: Socket
  #settled = false

  private constructor(socket: Socket) {
    this.#socket = socket
    // A write after the inspection stopped (it refused the data) fails; the refusal is the answer.
    socket.on('error', () => {})
    this.result = new Promise<InspectionResult>((resolve, reject) => {
      let text = ''
      socket.setEncoding('utf8')
      socket.on('data', (data: string) => {
        text += data
        const end = text.indexOf('\n')
        if (end < 0) return
        const reply = JSON.parse(text.slice(0, end)) as InspectionReply
        if ('done' in reply) return resolve(reply.done)
        const { refusal, code, message } = reply.failed
        reject(refusal ? new ApiError(...refusal) : Object.assign(new Error(message), { code }))
      })
      socket.on('close', () => reject(stopped()))
    })
    this.result.then(
      () => this.#settle(),
      () => this.#settle(),
    )
  }

  /** Connects to the inspection process (started if need be) and announces the upload. */
  static async open(maxUncompressedBytes: number): Promise<Inspection> {
    const socket = await connectToInspection()
    const header: InspectionHeader = { maxUncompressedBytes }
    socket.write(`${JSON.stringify(header)}\n`)
    return new Inspection(socket)
  }

  /**
   * Sends chunks in one write; resolves once the socket has taken all of them (their memory is
   * free then), or the inspection is over. A write that fails resolves too: the inspection's
   * outcome is the answer.
   */
  write(chunks: readonly Buffer[]): Promise<void> {
    if (this.#settled || chunks.length === 0) return Promise.resolve()
    return new Promise<void>((resolve) => {
      const socket = this.#socket
      socket.cork()
      const last = chunks.length - 1
      for (let i = 0; i < last; i++) socket.write(chunks[i] as Buffer)
      socket.write(chunks[last] as Buffer, () => resolve())
      socket.uncork()
    })
  }

  /** The end of the data: resolves with the result once the inspection has seen all of it. */
  end(): Promise<InspectionResult> {
    if (!this.#settled) this.#socket.end()
    return this.result
  }

  close(): void {
    this.#socket.destroy()
  }

  #settle(): void {
    this.#settled = true
  }
}
