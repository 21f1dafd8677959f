import { EventEmitter, once } from 'node:events'
import { setTimeout as sleep } from 'node:timers/promises'
import closeWithGrace from 'close-with-grace'
import type { FastifyBaseLogger, FastifyInstance } from 'fastify'
import pino from 'pino'
import { npmScriptParent, type ScriptWatch, watchNpmScript } from './npm-script-watch.ts'

/** In-flight requests get this long to finish once a stop is asked for; then the process exits anyway. */
export const SHUTDOWN_GRACE_MS = 10_000
const LOG_FLUSH_MS = 1000
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const

export interface StopOptions {
  graceMs?: number
  /**
   * The watch on the npm script that started this process (see `watchStartingScript`), whose end
   * or signal stops the server too. Started here by default; `null` watches nothing.
   */
  npmScript?: ScriptWatch | null
}

/**
 * Watches the npm script that started this process, if one did, from before the server is up: a
 * stop asked for while it starts (waiting for PostgreSQL, say) ends the start.
 */
export function watchStartingScript(): ScriptWatch | undefined {
  const parent = npmScriptParent(process.env, process.ppid)
  if (parent === undefined) return undefined
  return watchNpmScript(parent, (reason) => {
    process.stderr.write(`cloudplane: stopped while starting (${reason})\n`)
    process.exit(1)
  })
}

/**
 * Stops the server cleanly on SIGTERM, SIGINT, or a stop handed to the npm script that started it:
 * stops accepting connections, lets in-flight requests finish within the grace period, closes the
 * database, logs each step. A second signal exits at once.
 */
export function stopGracefully(
  app: FastifyInstance,
  log: FastifyBaseLogger,
  options: StopOptions = {},
): void {
  const graceMs = options.graceMs ?? SHUTDOWN_GRACE_MS
  let reason: string | undefined
  let signalled = false
  let watch: ScriptWatch | undefined
  const closer = closeWithGrace(
    {
      delay: graceMs,
      logger: { error: (message: unknown) => log.error(message) },
      // SIGINT and SIGTERM are counted below, with the npm script's stop.
      skip: [...STOP_SIGNALS],
      onTimeout: () =>
        log.error({ graceMs }, 'requests still running after the grace period; exiting anyway'),
      onSecondSignal: (signal) => log.warn({ signal }, 'second signal; exiting at once'),
    },
    async ({ signal, err }) => {
      watch?.stop()
      reason ??= signal ?? (err ? 'error' : 'exit')
      if (err) log.error({ err }, 'shutting down after an error')
      else log.info({ reason }, 'shutting down')
      await app.close()
      log.info('stopped')
      await settleLog(log)
    },
  )
  const stop = (why: string) => {
    if (reason !== undefined) return
    reason = why
    void closer.close()
  }
  const onSignal = (signal: NodeJS.Signals) => {
    // A terminal's Ctrl-C reaches both this process and npm's shell: when the shell's wake-up was
    // seen first, this signal is the same request. Only a further one exits at once.
    if (reason !== undefined && signalled) {
      log.warn({ signal }, 'second signal; exiting at once')
      process.exit(1)
    }
    signalled = true
    stop(signal)
  }
  for (const signal of STOP_SIGNALS) process.on(signal, onSignal)
  watch = options.npmScript === undefined ? watchStartingScript() : (options.npmScript ?? undefined)
  if (watch) watch.onStop = stop
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
