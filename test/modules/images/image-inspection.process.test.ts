import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'

const PROGRAM = fileURLToPath(
  new URL('../../../src/modules/images/image-inspection.process.ts', import.meta.url),
)

describe('image inspection process: its API process gone before it listens', () => {
  it('stops quietly instead of crashing on the closed channel', async () => {
    // A server stopped as it starts: the channel closes while the child still loads.
    const dir = mkdtempSync(join(tmpdir(), 'inspection-test-'))
    try {
      const child = spawn(process.execPath, [PROGRAM, join(dir, 'socket')], {
        stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      })
      let stderr = ''
      child.stderr?.on('data', (chunk: Buffer) => {
        stderr += chunk.toString()
      })
      child.disconnect()
      const [code] = (await once(child, 'exit')) as [number | null]
      assert.equal(stderr, '', 'nothing on stderr')
      assert.equal(code, 0)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
