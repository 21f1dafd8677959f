import pino, { type Logger } from 'pino'

/**
 * The server's pino logger. Writes are asynchronous (sonic-boom batches lines while a write is in
 * flight), which keeps the one access-log line per request cheap; it is flushed on shutdown.
 * Secrets stay out by construction: log calls pass only chosen fields (the access log: method,
 * path, status, time), never headers, bodies or rows, and tests check that no token reaches a log.
 */
export function createLogger(level: string): Logger {
  return pino({ level, timestamp: pino.stdTimeFunctions.isoTime }, pino.destination({ sync: false }))
}
