import { setTimeout as sleep } from 'node:timers/promises'
import { sql } from 'kysely'
import type { Db } from '../db/connect.ts'
import { StartupError } from './startup-error.ts'

/** Failures that go away when the database comes up (a container still starting, a restart). */
const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  '57P03', // the database system is starting up
  '53300', // too many connections
])

const FIRST_DELAY_MS = 250
const MAX_DELAY_MS = 5000

export interface WaitOptions {
  /** How long to keep trying, in ms; 0 tries once. */
  timeoutMs: number
  /** The database as shown to people (no password). */
  where: string
  onRetry: (attempt: { number: number; delayMs: number; cause: string }) => void
}

/** The code and message of a driver error; a multi-address connect fails with an AggregateError. */
function unwrap(error: unknown): { code: string | undefined; message: string } {
  const e = error as { code?: string; message?: string; errors?: unknown[] }
  const inner = Array.isArray(e?.errors) && e.errors.length > 0 ? (e.errors[0] as typeof e) : undefined
  const code = e?.code ?? inner?.code
  const message = e?.message || inner?.message || String(error)
  return { code, message }
}

/**
 * Waits for PostgreSQL to answer, retrying with exponential backoff (250 ms doubling to 5 s) for
 * at most `timeoutMs`, so that a server started next to its database (compose, CI services) does
 * not die on the first refused connection. Errors that waiting cannot fix (a wrong password, a
 * missing database) fail at once, in one line.
 */
export async function waitForDatabase(db: Db, options: WaitOptions): Promise<void> {
  const deadline = Date.now() + options.timeoutMs
  let delayMs = FIRST_DELAY_MS
  for (let number = 1; ; number++) {
    let failure: { code: string | undefined; message: string }
    try {
      await withDeadline(sql`select 1`.execute(db), Math.max(deadline - Date.now(), 5000))
      return
    } catch (error) {
      failure = unwrap(error)
    }
    const transient =
      failure.code === undefined
        ? /terminated|timeout|closed/i.test(failure.message)
        : TRANSIENT_CODES.has(failure.code)
    const cause =
      failure.code && !failure.message.includes(failure.code)
        ? `${failure.code} ${failure.message}`
        : failure.message
    if (!transient) throw new StartupError(explainPermanent(failure, options.where))
    const wait = Math.min(delayMs, deadline - Date.now())
    if (wait <= 0) {
      const seconds = Math.round(options.timeoutMs / 1000)
      throw new StartupError(
        `cannot reach the database at ${options.where} (${cause}) after ${number} attempt${number === 1 ? '' : 's'} in ${seconds} s; is PostgreSQL running? DATABASE_CONNECT_TIMEOUT sets how long to wait`,
      )
    }
    options.onRetry({ number, delayMs: wait, cause })
    await sleep(wait)
    delayMs = Math.min(delayMs * 2, MAX_DELAY_MS)
  }
}

function explainPermanent(failure: { code: string | undefined; message: string }, where: string): string {
  if (failure.code === '28P01' || failure.code === '28000') {
    return `PostgreSQL at ${where} refused the login: ${failure.message}; check the user and password in DATABASE_URL`
  }
  if (failure.code === '3D000') {
    return `PostgreSQL at ${where}: ${failure.message}; create it (createdb <name>) or fix DATABASE_URL`
  }
  return `cannot use the database at ${where}: ${failure.message}`
}

/** A connection attempt to a black-holed host can hang far longer than the wait allows. */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  const controller = new AbortController()
  const timeout = sleep(ms, undefined, { signal: controller.signal }).then(() => {
    throw Object.assign(new Error(`no answer within ${Math.round(ms / 1000)} s`), { code: 'ETIMEDOUT' })
  })
  try {
    return await Promise.race([work, timeout])
  } finally {
    controller.abort()
    timeout.catch(() => {})
  }
}

/** A PostgreSQL URL as shown in messages and logs: host, port and database, never the password. */
export function describePostgresUrl(url: string): string {
  try {
    const parsed = new URL(url)
    const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''
    return `postgres://${user}${parsed.host}${parsed.pathname}`
  } catch {
    return 'PostgreSQL'
  }
}
