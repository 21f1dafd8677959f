import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gzipSync } from 'node:zlib'
import { testDialect } from './helpers/dialects.ts'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from './helpers/processes.ts'

const modeOf = async (path: string) => (await stat(path)).mode & 0o777

/** What the server keeps on disk is for its own user alone: folders 0700, files 0600. */
describe('the modes of the files a server creates', () => {
  let parent: string
  let dataDir: string
  let database: ProcessDatabase | undefined
  let server: ServerProcess
  const token = randomBytes(32).toString('hex')

  before(async () => {
    parent = await mkdtemp(join(tmpdir(), 'cloudplane-modes-'))
    dataDir = join(parent, 'data', 'nested')
    database = await processDatabase(dataDir)
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
    }
    if (testDialect() === 'postgres') env.CLOUDPLANE_BLOBS_DIR = join(dataDir, 'blobs')
    server = await startServerProcess(env)
  })

  after(async () => {
    await server?.stop()
    await database?.drop()
    await rm(parent, { recursive: true, force: true })
  })

  it('the data folder, the database files and the image data', async () => {
    const created = await fetch(`${server.baseUrl}/v4/images/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ label: 'modes', region: 'us-east' }),
    })
    const { upload_to } = (await created.json()) as { upload_to: string }
    const data = Buffer.alloc(4096)
    data.writeUInt16BE(0x55aa, 510)
    const put = await fetch(upload_to, { method: 'PUT', body: gzipSync(data) })
    assert.equal(put.status, 200)

    assert.equal(await modeOf(dataDir), 0o700, 'data folder')
    for (const name of await readdir(dataDir, { recursive: true })) {
      const path = join(dataDir, name)
      const info = await stat(path)
      assert.equal(info.mode & 0o777, info.isDirectory() ? 0o700 : 0o600, name)
    }
    if (testDialect() === 'sqlite') {
      for (const name of ['cloudplane.db', 'cloudplane.db-wal']) {
        assert.equal(await modeOf(join(dataDir, name)), 0o600, name)
      }
    }
  })
})
