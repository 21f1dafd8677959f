import assert from 'node:assert/strict'
import { type ChildProcess, spawn } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { type IncomingMessage, request } from 'node:http'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { waitFor } from './helpers/wait-for.ts'
import { gz, rawImage } from './modules/images/image-helpers.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'src', 'cli.ts')
const READY = /^cloudplane: ready on (http:\/\/127\.0\.0\.1:(\d+)\/v4)/m

interface Launched {
  child: ChildProcess
  stdout(): string
  stderr(): string
  exited: Promise<[number | null, NodeJS.Signals | null]>
}

/** The environment of a test run, without settings that would point a server elsewhere. */
function serverEnv(extra: Record<string, string>): Record<string, string | undefined> {
  const { DATA_DIR: _d, DATABASE_URL: _u, PORT: _p, HOST: _h, ...rest } = process.env
  return { ...rest, LOG_LEVEL: 'info', ...extra }
}

function launch(command: string, args: string[], env: Record<string, string>): Launched {
  // A process group of its own, so that a failed test can stop npm, its shell and the server at once.
  const child = spawn(command, args, {
    cwd: ROOT,
    env: serverEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => {
    stdout += d
  })
  child.stderr?.on('data', (d) => {
    stderr += d
  })
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>
  launched.push(child)
  return { child, stdout: () => stdout, stderr: () => stderr, exited }
}

const launched: ChildProcess[] = []

/** Whatever a failed test left running: the whole group, so no orphan keeps a port. */
function killLeftovers(): void {
  for (const child of launched) {
    try {
      if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
}
process.once('exit', killLeftovers)

/** Waits for the ready line on stderr: the harness's way to learn the port picked for PORT=0. */
async function readyUrl(server: Launched): Promise<{ url: string; port: number }> {
  const match = await waitFor(
    () => {
      if (server.child.exitCode !== null) {
        throw new Error(`exited with ${server.child.exitCode}: ${server.stderr()}${server.stdout()}`)
      }
      return READY.exec(server.stderr())
    },
    { timeout: 60_000, interval: 50, message: () => `the ready line: ${server.stderr()}` },
  )
  return { url: match[1] as string, port: Number(match[2]) }
}

/**
 * The JSON log lines of stdout; fails on any line that is not one. npm's own header of a script
 * (`> cloudplane@… start`) is npm's, not the server's (`npm start --silent` leaves it out).
 */
function logLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('> '))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>
      } catch {
        throw new Error(`stdout holds a line that is not JSON: ${line}`)
      }
    })
}

const refuses = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1')
    socket.once('connect', () => {
      socket.destroy()
      resolve(false)
    })
    socket.once('error', () => resolve(true))
  })

/** Gone, or a zombie nobody reaps (a container's init may not): either way it holds nothing. */
function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return true
  }
  try {
    return /^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  } catch {
    return true
  }
}

async function json(
  url: string,
  init: RequestInit = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(url, init)
  return { status: res.status, body: (await res.json()) as Record<string, unknown> }
}

describe('the server process', () => {
  const dirs: string[] = []
  after(() => {
    killLeftovers()
    for (const dir of dirs) {
      chmodSync(dir, 0o700)
      rmSync(dir, { recursive: true, force: true })
    }
  })
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'cloudplane-process-'))
    dirs.push(dir)
    return dir
  }

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`npm start with PORT=0: the real port everywhere, and ${signal} to npm stops the server and frees the port`, async () => {
      const npm = launch('npm', ['start'], { PORT: '0', DATA_DIR: tempDir() })
      const { url, port } = await readyUrl(npm)
      assert.notEqual(port, 0)

      // The banner and its token are on stderr; stdout is purely the JSON log.
      const token = /^ {2}([0-9a-f]{64})$/m.exec(npm.stderr())?.[1]
      assert.ok(token, npm.stderr())
      assert.match(npm.stderr(), new RegExp(`curl -H "Authorization: Bearer ${token}" ${url}/profile`))
      const ready = await waitFor(() => logLines(npm.stdout()).find((l) => l.msg === 'ready'), {
        message: () => `the ready log line: ${npm.stdout()}`,
      })
      assert.equal(ready.url, url)
      assert.equal(ready.port, port)
      assert.doesNotMatch(npm.stdout(), new RegExp(token), 'the token never reaches the log')
      assert.doesNotMatch(npm.stderr(), /"level":/, 'no log line on stderr')

      const upload = await json(`${url}/images/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'port-zero', region: 'us-east' }),
      })
      assert.equal(upload.status, 200, JSON.stringify(upload.body))
      assert.ok(
        String(upload.body.upload_to).startsWith(`http://127.0.0.1:${port}/`),
        String(upload.body.upload_to),
      )

      const serverPid = Number(ready.pid)
      assert.ok(serverPid > 0 && serverPid !== npm.child.pid)
      npm.child.kill(signal)
      await waitFor(async () => (await refuses(port)) && processGone(serverPid), {
        timeout: 20_000,
        interval: 50,
        message: () => `the server to stop and free port ${port}: ${npm.stdout()}`,
      })
      const log = logLines(npm.stdout())
      assert.ok(
        log.some((l) => l.msg === 'shutting down'),
        'the shutdown is logged',
      )
      assert.ok(
        log.some((l) => l.msg === 'stopped'),
        'the end of the shutdown is logged',
      )
      await npm.exited
    })
  }

  it('with sqlite::memory: nothing is written to disk, not even the secret key', async () => {
    const dataDir = join(tempDir(), 'never-created')
    const server = launch(process.execPath, [CLI, 'serve'], {
      PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: 'sqlite::memory:',
    })
    const { url } = await readyUrl(server)
    const token = /^ {2}([0-9a-f]{64})$/m.exec(server.stderr())?.[1]
    assert.ok(token, server.stderr())
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const upload = await json(`${url}/images/upload`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ label: 'in-memory', region: 'us-east' }),
    })
    assert.equal(upload.status, 200)
    const put = await fetch(String(upload.body.upload_to), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: gz(rawImage(64 * 1024)),
    })
    assert.equal(put.status, 200, await put.text())
    // The start-up and the upload are done: whatever they would have written exists by now.
    assert.equal(existsSync(dataDir), false, `${dataDir} was created`)
    server.child.kill('SIGTERM')
    assert.deepEqual(await server.exited, [0, null])
  })

  it('an in-flight request finishes after SIGTERM; the process exits once it has', async () => {
    const dataDir = tempDir()
    const token = 'ab'.repeat(32)
    const server = launch(process.execPath, [CLI, 'serve'], {
      PORT: '0',
      DATA_DIR: dataDir,
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
    })
    const { url } = await readyUrl(server)
    const upload = await json(`${url}/images/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'in-flight', region: 'us-east' }),
    })
    assert.equal(upload.status, 200)
    const imageId = Number(String((upload.body.image as { id: string }).id).split('/')[1])
    const data = gz(rawImage(1024 * 1024))
    const put = request(String(upload.body.upload_to), {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream', 'transfer-encoding': 'chunked' },
    })
    const answered = once(put, 'response') as Promise<[IncomingMessage]>
    put.write(data.subarray(0, data.length / 2))
    // The server has taken the upload (its handler runs) once the row says so.
    const db = new DatabaseSync(join(dataDir, 'cloudplane.db'), { readOnly: true })
    try {
      await waitFor(
        () =>
          db.prepare('select upload_state from images where id = ?').get(imageId)?.upload_state ===
          'receiving',
        { timeout: 10_000, message: 'the server to start receiving the upload' },
      )
    } finally {
      db.close()
    }
    server.child.kill('SIGTERM')
    await waitFor(() => logLines(server.stdout()).some((l) => l.msg === 'shutting down'), {
      timeout: 10_000,
      message: () => `the shutdown to start: ${server.stdout()}`,
    })
    assert.equal(server.child.exitCode, null, 'the server waits for the request in flight')
    put.end(data.subarray(data.length / 2))
    const [res] = await answered
    let body = ''
    for await (const chunk of res) body += chunk
    assert.equal(res.statusCode, 200, body)
    assert.deepEqual(await server.exited, [0, null])
  })

  it('a port in use: one line naming the address and suggesting --port, exit code 1', async () => {
    const blocker = createServer()
    blocker.listen(0, '127.0.0.1')
    await once(blocker, 'listening')
    const { port } = blocker.address() as { port: number }
    try {
      const server = launch(process.execPath, [CLI, 'serve', '--port', String(port)], { DATA_DIR: tempDir() })
      const [code] = await server.exited
      assert.equal(code, 1)
      assert.match(
        server.stderr(),
        new RegExp(`^cloudplane: cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use.*--port`, 'm'),
      )
      assert.equal(server.stderr().trim().split('\n').length, 1, server.stderr())
    } finally {
      blocker.close()
    }
  })

  it('a read-only data directory: one line naming it and the cause', {
    skip: process.getuid?.() === 0 ? 'root writes through any permission' : false,
  }, async () => {
    const parent = tempDir()
    const dataDir = join(parent, 'data')
    mkdirSync(dataDir)
    chmodSync(dataDir, 0o500)
    const server = launch(process.execPath, [CLI, 'serve', '--port', '0'], { DATA_DIR: dataDir })
    const [code] = await server.exited
    chmodSync(dataDir, 0o700)
    assert.equal(code, 1)
    assert.match(
      server.stderr(),
      new RegExp(`^cloudplane: the data directory ${dataDir} is not writable: permission denied`, 'm'),
    )
  })
})
