import { EventEmitter, once } from 'node:events'
import { readFileSync } from 'node:fs'
import { setTimeout as sleep } from 'node:timers/promises'
import closeWithGrace from 'close-with-grace'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import pino from 'pino'

/** In-flight requests get this long to finish once a stop is asked for; then the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000
const PARENT_POLL_MS = 250
const LOG_FLUSH_MS = 1000

export interface StopOptions {
  graceMs?: number
  /**
   * Exit when the process that started us goes away. On by default when an npm script (`npm
   * start`, `npx cloudplane serve`) started this process directly: npm hands a SIGTERM to the
   * `sh -c` running the script, and that shell dies without passing it on, which would leave this
   * process running, re-parented, still holding the port. Off otherwise, so a server that a script
   * starts in the background (`nohup cloudplane serve &`) outlives that script as intended.
   */
  watchParent?: boolean
}

/**
 * Stops the server cleanly on SIGTERM, SIGINT (or the parent's exit): stops accepting connections,
 * lets in-flight requests finish within the grace period, closes the database, logs each step.
 * A second signal exits at once.
 */
export function stopGracefully(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  options: StopOptions = {},
): void {
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS
  let parentWatch: NodeJS.Timeout | undefined
  const closer = closeWithGrace(
    {
      delay: graceMs,
      logger: { error: (message: unknown) => log.error(message) },
      onTimeout: () =>
        log.error({ graceMs }, 'requests still running after the grace period; exiting anyway'),
      onSecondSignal: (signal) => log.warn({ signal }, 'second signal; exiting at once'),
    },
    async ({ signal, err, manual }) => {
      clearInterval(parentWatch)
      if (err) log.error({ err }, 'shutting down after an error')
      else log.info({ signal: signal ?? (manual ? 'parent exited' : 'exit') }, 'shutting down')
      await app.close()
      log.info('stopped')
      await settleLog(log)
    },
  )
  if (options.watchParent ?? startedByNpmScript()) {
    const parent = process.ppid
    parentWatch = setInterval(() => {
      if (process.ppid !== parent) void closer.close()
    }, PARENT_POLL_MS)
    parentWatch.unref()
  }
}

/**
 * Whether the parent is the npm script itself: the `sh -c <script>` npm spawns, or npm when the
 * script `exec`s. Read from /proc (Linux, where CI runs); elsewhere this answers no.
 */
function startedByNpmScript(): boolean {
  const script = process.env.npm_lifecycle_script
  if (!script) return false
  try {
    const parent = readFileSync(`/proc/${process.ppid}/cmdline`, 'utf8').split('\0')
    return parent.includes(script) || /^npm\b/.test(parent[0] ?? '')
  } catch {
    return false
  }
}

/** pino's writer (sonic-boom): `_writing` is its only sign of a write still in flight. */
interface LogStream extends EventEmitter {
  _writing?: boolean
  flushSync?(): void
}

/**
 * Writes out the log before the process exits. pino would otherwise flush synchronously at exit,
 * and its writer retries a failed write (a reader that went away: EPIPE) forever, leaving a
 * stopped server that never exits. So the last lines are written asynchronously, for a bounded
 * time; whatever is still unwritten by then is dropped.
 */
async function settleLog(log: FastifyBaseLogger): Promise<void> {
  const stream = (log as unknown as Record<symbol, LogStream | undefined>)[pino.symbols.streamSym]
  if (stream === undefined || !(stream instanceof EventEmitter) || !stream._writing) return
  const drained = await Promise.race([once(stream, 'drain').then(() => true), sleep(LOG_FLUSH_MS, false)])
  if (!drained) stream.flushSync = () => {}
}
