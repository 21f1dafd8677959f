import pino, { type Logger } from 'pino'

/**
 * Bytes of log lines held before a write: one write(2) per ~150 access-log lines under load. Each
 * asynchronous write hands the text to a libuv thread, and waking it costs the request thread more
 * than the write itself on a busy machine (two context switches), so fewer, larger writes.
 */
const BUFFER_BYTES = 32 * 1024
/** Held lines are written at least this often, so a quiet server's log still shows them promptly. */
const FLUSH_INTERVAL_MS = 1000

type Destination = ReturnType<typeof pino.destination>

/**
 * Log lines gathered into one string before they reach sonic-boom. Its own buffering (minLength)
 * measures the bytes of the text it holds on every line (Buffer.byteLength over up to 16 KB), a
 * few microseconds per access-log line; here a line costs one string append, and sonic-boom gets
 * a few kilobytes at a time.
 */
class LineBatch {
  #pending = ''
  readonly #destination: Destination

  constructor(destination: Destination) {
    this.#destination = destination
  }

  write(line: string): boolean {
    this.#pending += line
    if (this.#pending.length >= BUFFER_BYTES) this.#handOver()
    return true
  }

  /** Called by the logger's `flush` (the server's onClose hook) and every second. */
  flush(done?: (error?: Error) => void): void {
    this.#handOver()
    this.#destination.flush(done)
  }

  flushSync(): void {
    this.#handOver()
    this.#destination.flushSync()
  }

  #handOver(): void {
    if (this.#pending === '') return
    const text = this.#pending
    this.#pending = ''
    this.#destination.write(text)
  }
}

/** Batches still to be written at exit (pino's own exit handler only knows sonic-boom's buffer). */
const live = new Set<WeakRef<LineBatch>>()
let exitHandler = false

function writeAtExit(batch: LineBatch): void {
  live.add(new WeakRef(batch))
  if (exitHandler) return
  exitHandler = true
  process.on('exit', () => {
    for (const ref of live) {
      try {
        ref.deref()?.flushSync()
      } catch {
        // Closed or broken: nothing more can be written.
      }
    }
  })
}

/**
 * The server's pino logger. Lines are gathered (LineBatch) and written in batches, which keeps the
 * one access-log line per request cheap; what is held is written every second, on close (the
 * server's onClose hook) and at process exit (synchronously). Secrets stay out by construction:
 * log calls pass only chosen fields (the access log: method, path, status, time), never headers,
 * bodies or rows, and tests check that no token reaches a log.
 */
export function createLogger(level: string): Logger {
  const batch = new LineBatch(pino.destination({ sync: false }))
  writeAtExit(batch)
  setInterval(() => {
    try {
      batch.flush()
    } catch {
      // Closed at shutdown: nothing left to write.
    }
  }, FLUSH_INTERVAL_MS).unref()
  return pino({ level, timestamp: isoTimeOncePerMs() }, batch)
}

/**
 * pino's `isoTime` (`,"time":"…Z"`), formatted once per millisecond: under load many lines share
 * one, and `toISOString` was a measurable share of an access-log line.
 */
function isoTimeOncePerMs(): () => string {
  let lastMs = -1
  let last = ''
  return () => {
    const now = Date.now()
    if (now !== lastMs) {
      lastMs = now
      last = `,"time":"${new Date(now).toISOString()}"`
    }
    return last
  }
}
