import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const LOGGER = fileURLToPath(new URL('../src/logger.ts', import.meta.url))

/** Runs `body` in a fresh process with `log` (createLogger('info')) in scope; its stdout lines. */
function logLines(body: string): Array<{ msg: string; level: number }> {
  const script = `import { createLogger } from ${JSON.stringify(LOGGER)}\nconst log = createLogger('info')\n${body}`
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  assert.equal(run.status, 0, run.stderr)
  return run.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line))
}

/** The server's logger holds lines back to write them in batches; none may be lost. */
describe('server logger', () => {
  it('writes the lines it still holds when the process exits', () => {
    const lines = logLines(`for (let i = 0; i < 3; i++) log.info({ i }, 'held')\nprocess.exit(0)`)
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['held', 'held', 'held'],
    )
  })

  it('writes every line, in order, across many batches and on flush', () => {
    const lines = logLines(
      `for (let i = 0; i < 500; i++) log.info({ i }, 'line ' + i)\nlog.warn('last')\nlog.flush()`,
    )
    assert.deepEqual(
      lines.map((l) => l.msg),
      [...Array.from({ length: 500 }, (_, i) => `line ${i}`), 'last'],
    )
    assert.equal(lines.at(-1)?.level, 40)
  })

  it('writes nothing below its level', () => {
    const lines = logLines(`log.debug('hidden')\nlog.info('shown')\nprocess.exit(0)`)
    assert.deepEqual(
      lines.map((l) => l.msg),
      ['shown'],
    )
  })
})
