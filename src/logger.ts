import pino, { type Logger } from 'pino'

/** Bytes of log lines held before a write: one write(2) per few dozen access-log lines under load. */
const BUFFER_BYTES = 4096
/** Held lines are written at least this often, so a quiet server's log still shows them promptly. */
const FLUSH_INTERVAL_MS = 1000

/**
 * The server's pino logger. Lines are buffered (sonic-boom's minLength) and written in batches,
 * which keeps the one access-log line per request cheap; the buffer is written every second, on
 * close (the server's onClose hook) and at process exit (pino's exit handler writes it
 * synchronously). Secrets stay out by construction: log calls pass only chosen fields (the access
 * log: method, path, status, time), never headers, bodies or rows, and tests check that no token
 * reaches a log.
 */
export function createLogger(level: string): Logger {
  const destination = pino.destination({ sync: false, minLength: BUFFER_BYTES })
  setInterval(() => {
    try {
      destination.flush()
    } catch {
      // Closed at shutdown: nothing left to write.
    }
  }, FLUSH_INTERVAL_MS).unref()
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, destination)
}
