import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { openSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { addGoal, formatSpread, spreadOf } from '../goals.ts'
import { freePort } from '../harness.ts'

/**
 * Time to ready on an existing database: from starting the README's command (`npm start`) to the
 * first 200 of GET /v4/regions, and the same for `node src/start.js serve` (what npm runs: the
 * bundle), so the share of npm itself shows, and for `node src/cli.ts serve` (the sources), so the
 * bundle's shows. The database was created and migrated, and the bundle built, by an earlier start.
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url))
const RUNS = 5

async function timeToReady(command: string, args: string[], env: Record<string, string>, logDir: string) {
  const port = await freePort()
  const log = openSync(join(logDir, `ready-${port}.log`), 'a')
  const started = performance.now()
  // Its own process group, so the stop reaches the server npm started as well as npm.
  const child = spawn(command, args, {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', log, log],
    detached: true,
  })
  try {
    const deadline = started + 30_000
    while (performance.now() < deadline) {
      if (child.exitCode !== null) throw new Error(`${command} exited with ${child.exitCode}`)
      try {
        if ((await fetch(`http://127.0.0.1:${port}/v4/regions`)).status === 200)
          return performance.now() - started
      } catch {
        // not listening yet
      }
      await sleep(5)
    }
    throw new Error('not ready within 30 s')
  } finally {
    if (child.exitCode === null && child.pid !== undefined) {
      process.kill(-child.pid, 'SIGTERM')
      await once(child, 'exit')
    }
  }
}

function npmCommand(): [string, string[]] {
  const cli = process.env.npm_execpath
  if (cli?.endsWith('.js')) return [process.execPath, [cli, 'start']]
  return ['npm', ['start']]
}

/** Times both commands; `npm start` carries the goal (median < 1 s). */
export async function readyCase(env: Record<string, string>, logDir: string): Promise<void> {
  const [npm, npmArgs] = npmCommand()
  const commands: Array<[string, string, string[]]> = [
    ['npm start', npm, npmArgs],
    ['node src/start.js serve', process.execPath, [join(ROOT, 'src', 'start.js'), 'serve']],
    ['node src/cli.ts serve', process.execPath, [join(ROOT, 'src', 'cli.ts'), 'serve']],
  ]
  // A first start creates and migrates the database and builds the bundle; it is not measured.
  await timeToReady(process.execPath, [join(ROOT, 'src', 'start.js'), 'serve'], env, logDir)
  console.log('\n### Ready on an existing database (start → first 200 of GET /v4/regions)\n')
  for (const [name, command, args] of commands) {
    const times: number[] = []
    for (let i = 0; i < RUNS; i++) {
      try {
        times.push(await timeToReady(command, args, env, logDir))
      } catch (error) {
        console.log(`  ${name}, run ${i + 1}: ${(error as Error).message}`)
      }
    }
    const spread = spreadOf(times)
    console.log(`  ${name}: ${formatSpread(spread, 'ms')}`)
    if (name === 'npm start') {
      addGoal({
        name: 'ready from npm start',
        measure: 'ms to first 200',
        value: spread,
        kind: 'below',
        target: 1000,
        unit: 'ms',
      })
    }
  }
}
