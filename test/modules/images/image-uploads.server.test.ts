import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { createGzip } from 'node:zlib'
import type { Db } from '../../../src/db/connect.ts'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/processes.ts'
import { waitFor } from '../../helpers/wait-for.ts'

const MIB = 1024 * 1024

/** A sparse-looking raw disk streamed through gzip as it is generated: never whole in memory. */
function gzippedDisk(bytes: number): Readable {
  let left = bytes
  const zeros = Buffer.alloc(MIB)
  const disk = new Readable({
    read() {
      if (left === 0) return this.push(null)
      const n = Math.min(left, MIB)
      const chunk = left === bytes ? Buffer.from(zeros.subarray(0, n)).fill(7, 0, 16) : zeros.subarray(0, n)
      left -= n
      this.push(chunk)
    },
  })
  return disk.pipe(createGzip())
}

/**
 * Uploads over real sockets to a `cloudplane serve` process with the filesystem blob store:
 * streamed bodies, refusals that arrive as answers (not connection resets), and the job loop.
 */
describe('image upload against a running server', () => {
  let dir: string
  let database: ProcessDatabase | undefined
  let server: ServerProcess
  let db: Db
  const token = randomBytes(32).toString('hex')
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cloudplane-upload-'))
    database = await processDatabase(dir)
    server = await startServerProcess({
      DATA_DIR: dir,
      DATABASE_URL: database.url,
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
      CLOUDPLANE_IMAGE_UPLOAD_LIMIT: '1M',
      CLOUDPLANE_IMAGE_SIZE_LIMIT: '64M',
    })
    db = database.open()
  })

  after(async () => {
    await server?.stop()
    await db?.destroy()
    await database?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  const createUpload = async () => {
    const res = await fetch(`${server.baseUrl}/v4/images/upload`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ label: 'from-disk', region: 'us-east' }),
    })
    assert.equal(res.status, 200)
    return (await res.json()) as { upload_to: string; image: { id: string } }
  }

  it('starts the inspection process once ready, before any upload', {
    skip: !existsSync('/proc/self/task'),
  }, async () => {
    const pid = server.child.pid as number
    const inspections = () =>
      readdirSync('/proc').filter((name) => {
        try {
          const stat = readFileSync(`/proc/${name}/stat`, 'utf8')
          return (
            Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === pid &&
            readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('image-inspection.process')
          )
        } catch {
          return false // not a process, or gone meanwhile
        }
      })
    await waitFor(() => inspections().length === 1 || undefined, { message: 'the inspection process' })
  })

  it('streams a 32 MiB disk (chunked, no Content-Length) into the filesystem store', async () => {
    const { upload_to, image } = await createUpload()
    assert.ok(upload_to.startsWith(`${server.baseUrl}/image-uploads/`), upload_to)
    const res = await fetch(upload_to, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: Readable.toWeb(gzippedDisk(32 * MIB)) as ReadableStream,
      duplex: 'half',
    } as RequestInit)
    const body = (await res.json()) as { status: string; size: number }
    assert.equal(res.status, 200, JSON.stringify(body))
    assert.equal(body.status, 'available')
    assert.equal(body.size, 32)
    const id = image.id.split('/')[1]
    const file = await stat(join(dir, 'blobs', 'images', `${id}.img.gz`))
    assert.ok(file.size > 0 && file.size < MIB, 'the gzip data is what is stored')
    assert.deepEqual(await readdir(join(dir, 'blobs', '.tmp')), [])
  })

  it('answers a refusal mid-stream with the 4xx, which the client receives (no reset)', async () => {
    const { upload_to } = await createUpload()
    const url = new URL(upload_to)
    const result = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const gzip = createGzip()
      const req = httpRequest(
        {
          method: 'PUT',
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          headers: { 'content-type': 'application/octet-stream' },
        },
        (res) => {
          let text = ''
          res.setEncoding('utf8')
          res.on('data', (d) => {
            text += d
          })
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }))
          // Like curl on an early error: stop sending once the answer is in.
          gzip.unpipe(req)
          req.end()
        },
      )
      req.on('error', reject)
      // Incompressible data, well past the 1 MiB compressed limit, in chunks (no Content-Length).
      gzip.pipe(req)
      let sent = 0
      const pump = () => {
        while (sent < 8 * MIB) {
          sent += 64 * 1024
          if (!gzip.write(randomBytes(64 * 1024))) return gzip.once('drain', pump)
        }
        gzip.end()
      }
      pump()
    })
    assert.equal(result.status, 413)
    assert.deepEqual(JSON.parse(result.body), {
      errors: [{ reason: 'Image data must not exceed 1 MB (gzip-compressed)' }],
    })
    assert.deepEqual(await readdir(join(dir, 'blobs', '.tmp')), [])
  })

  it('runs background jobs in the server: the queued removal of a deleted image’s data', async () => {
    const { upload_to, image } = await createUpload()
    const put = await fetch(upload_to, {
      method: 'PUT',
      body: Readable.toWeb(gzippedDisk(MIB)) as ReadableStream,
      duplex: 'half',
    } as RequestInit)
    assert.equal(put.status, 200)
    const del = await fetch(`${server.baseUrl}/v4/images/${encodeURIComponent(image.id)}`, {
      method: 'DELETE',
      headers: auth,
    })
    assert.equal(del.status, 200)
    const id = image.id.split('/')[1]
    await assert.rejects(stat(join(dir, 'blobs', 'images', `${id}.img.gz`)), /ENOENT/)
    const queued = () => db.selectFrom('jobs').select('id').where('kind', '=', 'blob-delete').execute()
    await waitFor(async () => (await queued()).length === 0, {
      timeout: 6000,
      message: 'the server’s job loop to run the queued job',
    })
  })
})
