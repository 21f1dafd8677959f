import { readFileSync } from 'node:fs'
import { UsageError, type Values } from './command.ts'

/**
 * The control API key: `--admin-key`, or the first line of `--admin-key-file`, else the same from
 * the environment (`CLOUDPLANE_ADMIN_KEY`, `CLOUDPLANE_ADMIN_KEY_FILE`), as `serve` takes it.
 */
function adminKey(values: Values): string | undefined {
  const file = (path: string, source: string) => {
    let text: string
    try {
      text = readFileSync(path, 'utf8')
    } catch (error) {
      throw new UsageError(
        `${source}: cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`,
      )
    }
    return text.split(/\r?\n/, 1)[0] || undefined
  }
  if (values['admin-key']) return values['admin-key']
  if (values['admin-key-file']) return file(values['admin-key-file'], '--admin-key-file')
  if (process.env.CLOUDPLANE_ADMIN_KEY) return process.env.CLOUDPLANE_ADMIN_KEY
  const envFile = process.env.CLOUDPLANE_ADMIN_KEY_FILE
  return envFile ? file(envFile, 'CLOUDPLANE_ADMIN_KEY_FILE') : undefined
}

export interface ControlCall {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  path: string
  body?: unknown
  /** Sent as is (a snapshot file, a YAML seed file). */
  raw?: { bytes: Buffer; type: string }
}

/**
 * Calls the control API of a running server. A refusal becomes the command's failure with the
 * server's reasons; an unreachable server says which URL was tried.
 */
export async function callControl(values: Values, call: ControlCall): Promise<Response> {
  const base = (values.url ?? process.env.CLOUDPLANE_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '')
  const key = adminKey(values)
  if (!key)
    throw new UsageError('needs --admin-key <key> or --admin-key-file <file> (or CLOUDPLANE_ADMIN_KEY)')
  const headers: Record<string, string> = { 'x-cloudplane-admin-key': key }
  let body: Uint8Array | string | undefined
  if (call.raw !== undefined) {
    headers['content-type'] = call.raw.type
    body = new Uint8Array(call.raw.bytes)
  } else if (call.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(call.body)
  }
  let res: Response
  try {
    res = await fetch(`${base}/_cloudplane${call.path}`, {
      method: call.method,
      headers,
      ...(body && { body }),
    })
  } catch (error) {
    throw new Error(
      `cannot reach ${base}: ${(error as Error & { cause?: Error }).cause?.message ?? (error as Error).message}`,
    )
  }
  if (res.ok) return res
  const text = await res.text()
  let reasons = text
  try {
    const parsed = JSON.parse(text) as { errors?: Array<{ reason: string; field?: string }> }
    if (parsed.errors)
      reasons = parsed.errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join('\n  ')
  } catch {}
  // A 404 is a missing snapshot or user, or no control API at all: the clock always exists there.
  if (res.status === 404 && !(await hasControlApi(base, key))) {
    throw new Error(`${base} has no control API (CLOUDPLANE_CONTROL=off?)`)
  }
  const message = `the server answered ${res.status}: ${reasons}`
  // The server refused a value the command was given: a mistake in the arguments, as a local one is.
  if (res.status === 400) throw new UsageError(message)
  throw new Error(message)
}

/** Prints a JSON answer, indented, on stdout. */
export async function printJson(res: Response): Promise<void> {
  process.stdout.write(`${JSON.stringify(await res.json(), null, 2)}\n`)
}

async function hasControlApi(base: string, key: string): Promise<boolean> {
  try {
    const res = await fetch(`${base}/_cloudplane/clock`, { headers: { 'x-cloudplane-admin-key': key } })
    await res.body?.cancel()
    return res.status !== 404
  } catch {
    // Gone meanwhile: the first answer's own message says more.
    return true
  }
}
