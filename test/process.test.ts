import assert from 'node:assert/strict'
import { type ChildProcess, spawn, spawnSync } from 'node:child_process'
import { once } from 'node:events'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { type IncomingMessage, request } from 'node:http'
import { connect, createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { after, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { waitFor } from './helpers/wait-for.ts'
import { gz, rawImage } from './modules/images/image-helpers.ts'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const CLI = join(ROOT, 'src', 'cli.ts')
const BIN = join(ROOT, 'src', 'bin.ts')
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

function launch(command: string, args: string[], env: Record<string, string>, cwd = ROOT): Launched {
  // A process group of its own, so that a failed test can stop npm, its shell and the server at once.
  const child = spawn(command, args, {
    cwd,
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

/** The parent of a process, from /proc. */
function parentOf(pid: number): number {
  return Number(/^\d+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1])
}

/** The server's own process id, from its ready log line (npm and a shell sit above it). */
async function serverPid(server: Launched): Promise<number> {
  const ready = await waitFor(() => logLines(server.stdout()).find((l) => l.msg === 'ready'), {
    message: () => `the ready log line: ${server.stdout()}`,
  })
  return Number(ready.pid)
}

/**
 * Sends `signal` to `target` (npm's pid, or minus it for its whole group as a terminal's Ctrl-C
 * does), then waits until the server process is gone and its port refuses connections, and
 * checks that it stopped cleanly: both shutdown lines logged, no exit at once.
 */
async function stopsCleanly(server: Launched, port: number, target: number, signal: NodeJS.Signals) {
  const pid = await serverPid(server)
  process.kill(target, signal)
  await waitFor(async () => (await refuses(port)) && processGone(pid), {
    timeout: 20_000,
    interval: 50,
    message: () => `the server to stop and free port ${port} after ${signal}: ${server.stdout()}`,
  })
  const log = logLines(server.stdout())
  assert.ok(
    log.some((l) => l.msg === 'shutting down'),
    'the shutdown is logged',
  )
  assert.ok(
    log.some((l) => l.msg === 'stopped'),
    'the end of the shutdown is logged',
  )
  assert.ok(!log.some((l) => l.msg === 'second signal; exiting at once'), server.stdout())
  await server.exited
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

      const pid = Number(ready.pid)
      // npm runs the script in a shell: npm hands the signal to that shell, not to the server.
      assert.notEqual(parentOf(pid), npm.child.pid, 'a shell sits between npm and the server')
      await stopsCleanly(npm, port, npm.child.pid as number, signal)
    })
  }

  // SIGKILL: a harness's last resort kills npm alone, leaving its shell waiting on the server.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGKILL'] as const) {
    it(`npx cloudplane serve: ${signal} to npm stops the server and frees the port`, async () => {
      // A folder with the package installed, as `npm install cloudplane` leaves it: its bin, an
      // executable, in node_modules/.bin (here one that becomes src/bin.ts on this test's Node).
      // npx then runs it through a shell, as it does any bin.
      const folder = tempDir()
      const bin = join(folder, 'node_modules', '.bin', 'cloudplane')
      mkdirSync(dirname(bin), { recursive: true })
      writeFileSync(bin, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`, { mode: 0o755 })
      const npx = launch(
        'npx',
        ['cloudplane', 'serve'],
        { PORT: '0', DATA_DIR: join(folder, 'data') },
        folder,
      )
      const { port } = await readyUrl(npx)
      const pid = await serverPid(npx)
      assert.notEqual(parentOf(pid), npx.child.pid, 'a shell sits between npm and the server')
      await stopsCleanly(npx, port, npx.child.pid as number, signal)
    })
  }

  it('SIGTERM to npm while the server still waits for PostgreSQL ends the start', async () => {
    const npm = launch('npm', ['start', '--', '--database-connect-timeout', '120'], {
      PORT: '0',
      DATA_DIR: tempDir(),
      // Port 1 on loopback: nothing listens there, so the start keeps retrying.
      DATABASE_URL: 'postgres://cloudplane@127.0.0.1:1/cloudplane',
    })
    const retry = await waitFor(
      () => logLines(npm.stdout()).find((l) => l.msg === 'database unreachable; retrying'),
      { timeout: 60_000, interval: 50, message: () => `a retry: ${npm.stdout()}${npm.stderr()}` },
    )
    const pid = Number(retry.pid)
    assert.notEqual(parentOf(pid), npm.child.pid, 'a shell sits between npm and the server')
    const port = Number(/"msg":"Server listening at http:\/\/127\.0\.0\.1:(\d+)"/.exec(npm.stdout())?.[1])
    assert.ok(port > 0, npm.stdout())
    npm.child.kill('SIGTERM')
    await waitFor(async () => (await refuses(port)) && processGone(pid), {
      timeout: 20_000,
      interval: 50,
      message: () => `the starting server to stop: ${npm.stdout()}${npm.stderr()}`,
    })
    assert.match(npm.stderr(), /^cloudplane: stopped while starting \(the npm script's shell exited\)$/m)
  })

  it("Ctrl-C reaches npm, its shell and the server at once: one clean stop, not the second signal's", async () => {
    const npm = launch('npm', ['start'], { PORT: '0', DATA_DIR: tempDir() })
    const { port } = await readyUrl(npm)
    await stopsCleanly(npm, port, -(npm.child.pid as number), 'SIGINT')
  })

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

  it('a read-only data directory: one line naming it and the cause', async (t) => {
    const parent = tempDir()
    const dataDir = join(parent, 'data')
    mkdirSync(dataDir)
    chmodSync(dataDir, 0o500)
    // Root writes through any permission bits, but not into a folder marked immutable.
    const asRoot = process.getuid?.() === 0
    if (asRoot && spawnSync('chattr', ['+i', dataDir]).status !== 0) {
      t.skip('running as root, and this file system cannot mark a folder immutable')
      return
    }
    try {
      const server = launch(process.execPath, [CLI, 'serve', '--port', '0'], { DATA_DIR: dataDir })
      const [code] = await server.exited
      assert.equal(code, 1)
      assert.match(
        server.stderr(),
        new RegExp(`^cloudplane: the data directory ${dataDir} is not writable: permission denied`, 'm'),
      )
      assert.equal(server.stderr().trim().split('\n').length, 1, server.stderr())
    } finally {
      if (asRoot) spawnSync('chattr', ['-i', dataDir])
      chmodSync(dataDir, 0o700)
    }
  })

  it('PostgreSQL unreachable: each attempt logged, then one line after the bounded wait, exit code 1', async () => {
    const server = launch(
      process.execPath,
      [CLI, 'serve', '--port', '0', '--database-connect-timeout', '1'],
      {
        DATA_DIR: tempDir(),
        // Port 1 on loopback: nothing listens there, so every attempt is refused at once.
        DATABASE_URL: 'postgres://cloudplane:secret@127.0.0.1:1/cloudplane',
      },
    )
    const [code] = await server.exited
    assert.equal(code, 1, server.stderr())
    const retries = logLines(server.stdout()).filter((l) => l.msg === 'database unreachable; retrying')
    assert.ok(retries.length >= 1, `each retry is logged: ${server.stdout()}`)
    assert.deepEqual(
      retries.map((l) => l.attempt),
      retries.map((_, i) => i + 1),
    )
    assert.ok(retries.every((l) => Number(l.retryInMs) > 0 && /ECONNREFUSED/.test(String(l.cause))))
    assert.match(
      server.stderr(),
      /^cloudplane: cannot reach the database at postgres:\/\/cloudplane@127\.0\.0\.1:1\/cloudplane .*after \d+ attempts in 1 s/,
    )
    assert.equal(server.stderr().trim().split('\n').length, 1, server.stderr())
    assert.doesNotMatch(server.stdout() + server.stderr(), /secret/, 'the password is never shown')
  })
})
