import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before } from 'node:test'
import { fileURLToPath } from 'node:url'
import { createDb, type Db } from '../../src/db/connect.ts'
import { createTestDatabase, testDialect, testPostgresUrl } from './dialects.ts'
import { waitFor } from './wait-for.ts'

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url))
/** What `npm start` runs: the CLI from its bundle. */
export const START = fileURLToPath(new URL('../../src/start.js', import.meta.url))

/** Runs `node <script> <args>` (LOG_LEVEL warn unless `env` says); resolves with its exit code and output. */
export async function runScript(script: string, args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    stdout += d
  })
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const [code] = await once(child, 'exit')
  return { code: code as number, stdout, stderr }
}

/** A free loopback port (the OS picks one; tiny race, fine for tests). */
export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

export interface ServerProcess {
  baseUrl: string
  child: ChildProcess
  /** Everything the process printed so far (stdout and stderr). */
  output(): string
  stop(): Promise<number | null>
}

/**
 * Starts `cloudplane serve` as a separate process and waits until `/readyz` says ready: a real
 * second API process for multi-process tests (two processes on one PostgreSQL database).
 */
export async function startServerProcess(
  env: Record<string, string>,
  // A deadline, not a measure: on a loaded two-core runner a start (migrating a new PostgreSQL
  // schema) once took longer than 30 s.
  timeoutMs = 120_000,
  entry = CLI,
): Promise<ServerProcess> {
  const port = await freePort()
  let output = ''
  const child = spawn(process.execPath, [entry, 'serve'], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  child.stdout?.on('data', (d) => {
    output += d
  })
  child.stderr?.on('data', (d) => {
    output += d
  })
  // A failing test must not leave a server behind (it would also keep the test process alive).
  const killOnExit = () => child.kill('SIGKILL')
  process.once('exit', killOnExit)
  child.once('exit', () => process.removeListener('exit', killOnExit))
  const baseUrl = `http://127.0.0.1:${port}`
  const stop = async () => {
    if (child.exitCode !== null) return child.exitCode
    child.kill('SIGTERM')
    const [code] = await once(child, 'exit')
    return code as number | null
  }
  const ready = async () => {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}: ${output}`)
    // A refused connection means not listening yet.
    const res = await fetch(`${baseUrl}/readyz`).catch(() => undefined)
    return res?.status === 200
  }
  try {
    await waitFor(ready, {
      timeout: timeoutMs,
      interval: 50,
      message: () => `the server to become ready: ${output}`,
    })
  } catch (error) {
    await stop()
    throw error
  }
  return { baseUrl, child, output: () => output, stop }
}

/** A DATABASE_URL for the test's PostgreSQL schema, for server processes to share it. */
export function postgresUrlForSchema(url: string, schema: string): string {
  const parsed = new URL(url)
  parsed.searchParams.set('schema', schema)
  return parsed.toString()
}

/** The database that server processes of a test share, on the engine the test runs on. */
export interface ProcessDatabase {
  /** DATABASE_URL for the processes: the data folder's SQLite file, or a new empty PostgreSQL schema. */
  url: string
  /** The same database, opened for the test's own reads. */
  open(): Db
  drop(): Promise<void>
}

export async function processDatabase(dataDir: string): Promise<ProcessDatabase> {
  if (testDialect() === 'sqlite') {
    const location = join(dataDir, 'cloudplane.db')
    return {
      url: `sqlite:${location}`,
      open: () => createDb({ kind: 'sqlite', location }),
      drop: async () => {},
    }
  }
  const database = await createTestDatabase()
  await database.db.destroy()
  const schema = database.schema as string
  return {
    url: postgresUrlForSchema(testPostgresUrl(), schema),
    open: () => createDb({ kind: 'postgres', location: testPostgresUrl(), schema }),
    drop: () => database.drop(),
  }
}

export interface ServerPair {
  /** The processes' data folder. */
  readonly dir: string
  readonly servers: [ServerProcess, ServerProcess]
}

/**
 * Two API processes on one new database for the enclosing `describe`: started one after the
 * other, so the first migrates and seeds alone; stopped, and their folder and database removed,
 * after it. `env` gets the data folder (for files the processes read) and adds to what they share.
 */
export function useServerPair(prefix: string, env: (dir: string) => Record<string, string>): ServerPair {
  let dir: string | undefined
  let database: ProcessDatabase | undefined
  let servers: ServerProcess[] = []
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix))
    database = await processDatabase(dir)
    const shared = { ...env(dir), DATABASE_URL: database.url, DATA_DIR: dir }
    servers.push(await startServerProcess(shared))
    servers.push(await startServerProcess(shared))
  })
  after(async () => {
    await Promise.all(servers.map((s) => s.stop()))
    servers = []
    await database?.drop()
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
  })
  return {
    get dir() {
      if (dir === undefined) throw new Error('the server pair exists only between its hooks')
      return dir
    },
    get servers() {
      if (servers.length !== 2) throw new Error('the server pair exists only between its hooks')
      return servers as [ServerProcess, ServerProcess]
    },
  }
}
