import assert from 'node:assert/strict'
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { gzipSync } from 'node:zlib'
import {
  type ProcessDatabase,
  processDatabase,
  runScript,
  START,
  startServerProcess,
} from './helpers/processes.ts'
import { waitFor } from './helpers/wait-for.ts'
import { rawImage } from './modules/images/image-helpers.ts'

const TOKEN = 'b7'.repeat(32)
const ADMIN_KEY = 'start-bundle-admin-key-0123456789'
const REPOSITORY = new URL('../', import.meta.url)

/** Runs `node src/start.js <args>` (what `npm run cloudplane` runs). */
const startScript = (args: string[], env: Record<string, string>) => runScript(START, args, env)

interface Manifest {
  format: number
  inputs: Record<string, number>
}

describe('npm start: the CLI from one bundled file, rebuilt when its sources change', () => {
  let dir: string
  let bundleDir: string
  let database: ProcessDatabase
  const manifestPath = () => join(bundleDir, 'cli.json')
  const bundlePath = () => join(bundleDir, 'cli.mjs')
  const readManifest = () => JSON.parse(readFileSync(manifestPath(), 'utf8')) as Manifest

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cloudplane-start-'))
    bundleDir = join(dir, 'bundle')
    database = await processDatabase(dir)
  })
  after(async () => {
    await database.drop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a first start builds the bundle and serves from it: the API, an upload checked by its own process, the journal written by its thread', async () => {
    const server = await startServerProcess(
      {
        DATA_DIR: dir,
        DATABASE_URL: database.url,
        CLOUDPLANE_BUNDLE_DIR: bundleDir,
        CLOUDPLANE_BOOTSTRAP_TOKEN: TOKEN,
        CLOUDPLANE_CONTROL: 'on',
        CLOUDPLANE_ADMIN_KEY: ADMIN_KEY,
      },
      90_000,
      START,
    )
    try {
      assert.doesNotMatch(server.output(), /could not build/)
      // Node's own modules are taken without reading their lazy exports (the fetch implementation).
      assert.doesNotMatch(readFileSync(bundlePath(), 'utf8'), /^import \{[^;]*\} from "node:/m)
      const inputs = Object.keys(readManifest().inputs)
      for (const input of ['src/cli.ts', 'src/app.ts', 'package.json'])
        assert.ok(inputs.includes(input), input)
      assert.ok(!inputs.some((i) => i.startsWith('node_modules/') && i !== 'node_modules/.package-lock.json'))

      const headers = { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }
      const regions = await fetch(`${server.baseUrl}/v4/regions`)
      assert.equal(regions.status, 200)
      assert.ok(((await regions.json()) as { data: unknown[] }).data.length > 0)

      // The inspection process's program is found beside its module's source, not the bundle.
      const created = await fetch(`${server.baseUrl}/v4/images/upload`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ label: 'from-the-bundle', region: 'us-east' }),
      })
      assert.equal(created.status, 200)
      const { upload_to } = (await created.json()) as { upload_to: string }
      const put = await fetch(upload_to, {
        method: 'PUT',
        headers: { 'content-type': 'application/octet-stream' },
        body: gzipSync(rawImage(1024 * 1024)),
      })
      const uploaded = (await put.json()) as { status: string }
      assert.equal(put.status, 200, JSON.stringify(uploaded))
      assert.equal(uploaded.status, 'available')

      // So is the journal's worker thread.
      const entries = await waitFor(
        async () => {
          const res = await fetch(`${server.baseUrl}/_cloudplane/journal?path=/v4/regions`, {
            headers: { 'x-cloudplane-admin-key': ADMIN_KEY },
          })
          assert.equal(res.status, 200)
          const { data } = (await res.json()) as { data: Array<{ method: string; status: number }> }
          return data.length > 0 ? data : undefined
        },
        { message: 'the journal entry of GET /v4/regions' },
      )
      assert.deepEqual(
        entries.map((e) => [e.method, e.status]),
        [['GET', 200]],
      )
    } finally {
      assert.equal(await server.stop(), 0, server.output())
    }
  })

  it('a start whose inputs are as the manifest says runs the bundle as it is, without building', async () => {
    const built = readFileSync(bundlePath())
    try {
      writeFileSync(bundlePath(), "process.stdout.write('the bundle ran\\n')\n")
      const run = await startScript(['--version'], { CLOUDPLANE_BUNDLE_DIR: bundleDir })
      assert.equal(run.code, 0, run.stderr)
      assert.equal(run.stdout, 'the bundle ran\n')
    } finally {
      writeFileSync(bundlePath(), built)
    }
  })

  it('a source changed since the build is built again before the start', async () => {
    const manifest = readManifest()
    const cliTime = manifest.inputs['src/cli.ts']
    writeFileSync(bundlePath(), "process.stdout.write('the old bundle ran\\n')\n")
    writeFileSync(
      manifestPath(),
      JSON.stringify({ ...manifest, inputs: { ...manifest.inputs, 'src/cli.ts': 1 } }),
    )

    const run = await startScript(['--version'], { CLOUDPLANE_BUNDLE_DIR: bundleDir })
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, /^cloudplane \d+\.\d+\.\d+/)
    assert.equal(readManifest().inputs['src/cli.ts'], cliTime)
    assert.equal(readManifest().inputs['src/cli.ts'], statSync(new URL('src/cli.ts', REPOSITORY)).mtimeMs)
    assert.doesNotMatch(readFileSync(bundlePath(), 'utf8'), /the old bundle ran/)
  })

  it('a bundle that cannot be built leaves the start to the sources, and says so', async () => {
    const blocked = join(dir, 'a-file')
    writeFileSync(blocked, '')
    const run = await startScript(['--version'], { CLOUDPLANE_BUNDLE_DIR: join(blocked, 'bundle') })
    assert.equal(run.code, 0, run.stderr)
    assert.match(run.stdout, /^cloudplane \d+\.\d+\.\d+/)
    assert.match(run.stderr, /could not build the start bundle \(.+\); starting from the sources/)
  })
})
