import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { once } from 'node:events'
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises'
import { type ClientRequest, request as httpRequest } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import type { Db } from '../../../src/db/connect.ts'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/processes.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { gz, rawImage } from './image-helpers.ts'

/**
 * A server killed (kill -9) while an upload streams in: after the restart the upload URL takes
 * the data again once the dead process's claim lapses, and nothing partial stays behind.
 */
describe('an upload cut by a crash', () => {
  let dir: string
  let database: ProcessDatabase
  let server: ServerProcess
  let db: Db
  const env: Record<string, string> = {}
  const token = randomBytes(32).toString('hex')
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const partials = async () => (await readdir(join(dir, 'blobs', '.tmp'))).filter((n) => n.endsWith('.part'))

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cloudplane-crash-'))
    database = await processDatabase(dir)
    Object.assign(env, {
      DATA_DIR: dir,
      DATABASE_URL: database.url,
      CLOUDPLANE_BLOBS_DIR: join(dir, 'blobs'),
      CLOUDPLANE_BOOTSTRAP_TOKEN: token,
    })
    server = await startServerProcess(env)
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
      body: JSON.stringify({ label: 'crashed', region: 'us-east' }),
    })
    assert.equal(res.status, 200)
    return (await res.json()) as { upload_to: string; image: { id: string } }
  }

  const uploadState = async (imageId: string) =>
    db
      .selectFrom('images')
      .select(['status', 'upload_state'])
      .where('id', '=', Number(imageId.split('/')[1]))
      .executeTakeFirstOrThrow()

  /** Starts a PUT that sends the first part of the data and then holds the connection open. */
  const startStalledPut = (uploadTo: string): ClientRequest => {
    const url = new URL(uploadTo)
    const req = httpRequest({
      host: url.hostname,
      port: url.port,
      path: url.pathname,
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
    })
    req.on('error', () => {})
    const data = gz(rawImage(4 * 1024 * 1024, 'first half'))
    req.write(data.subarray(0, Math.floor(data.length / 2)))
    return req
  }

  /** The same upload URL on the restarted server (which listens on another port). */
  const put = (uploadTo: string, data: Buffer) =>
    fetch(`${server.baseUrl}${new URL(uploadTo).pathname}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/octet-stream' },
      body: data,
    })

  it('kill -9 mid-upload, restart, and the same URL takes the data to `available`', async () => {
    const { upload_to, image } = await createUpload()
    const stalled = startStalledPut(upload_to)
    await waitFor(async () => (await uploadState(image.id)).upload_state === 'receiving', {
      message: 'the upload to be receiving',
    })
    await waitFor(async () => (await partials()).length === 1, { message: 'a partial file' })

    server.child.kill('SIGKILL')
    await once(server.child, 'exit')
    stalled.destroy()
    server = await startServerProcess(env)

    // The dead process's claim lapses; the server gives the URL back and drops the partial file.
    await waitFor(async () => (await uploadState(image.id)).upload_state === 'waiting', {
      timeout: 30_000,
      interval: 200,
      message: 'the interrupted upload to be given back',
    })
    assert.equal((await uploadState(image.id)).status, 'pending_upload')
    await waitFor(async () => (await partials()).length === 0, { message: 'the partial file to go' })

    const res = await put(upload_to, gz(rawImage(8192, 'second try')))
    const body = (await res.json()) as { status: string }
    assert.equal(res.status, 200, JSON.stringify(body))
    assert.equal(body.status, 'available')
    await stat(join(dir, 'blobs', 'images', `${image.id.split('/')[1]}.img.gz`))
  })

  it('deleting the image of an interrupted upload removes its partial file', async () => {
    const { upload_to, image } = await createUpload()
    const stalled = startStalledPut(upload_to)
    await waitFor(async () => (await partials()).length === 1, { message: 'a partial file' })
    server.child.kill('SIGKILL')
    await once(server.child, 'exit')
    stalled.destroy()
    server = await startServerProcess(env)

    const del = await fetch(`${server.baseUrl}/v4/images/${encodeURIComponent(image.id)}`, {
      method: 'DELETE',
      headers: auth,
    })
    assert.equal(del.status, 200)
    await waitFor(async () => (await partials()).length === 0, {
      timeout: 10_000,
      message: 'the partial file to go with the image',
    })
  })
})
