import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, describe, it } from 'node:test'
import { startServerProcess } from '../helpers/processes.ts'

describe('CLOUDPLANE_NAMING is fixed by the first start', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'cloudplane-naming-'))
  after(() => rmSync(dataDir, { recursive: true, force: true }))
  const env = (naming: string) => ({
    DATA_DIR: dataDir,
    CLOUDPLANE_NAMING: naming,
    CLOUDPLANE_CONTROL: 'off',
  })

  it('serves the real paths in linode naming, and refuses the other naming on that database', async () => {
    const first = await startServerProcess(env('linode'))
    try {
      assert.equal((await fetch(`${first.baseUrl}/v4/linode/types`)).status, 200)
      assert.equal((await fetch(`${first.baseUrl}/v4/compute/types`)).status, 404)
    } finally {
      await first.stop()
    }
    await assert.rejects(
      startServerProcess(env('document')),
      /CLOUDPLANE_NAMING: is document, but this database was first served with linode; start with CLOUDPLANE_NAMING=linode/,
    )
    const again = await startServerProcess(env('linode'))
    await again.stop()
  })
})
