import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import {
  type ProcessDatabase,
  processDatabase,
  type ServerProcess,
  startServerProcess,
} from '../../helpers/processes.ts'

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))

const CATALOGUE = {
  regions: [
    {
      id: 'lab-ams',
      label: 'Amsterdam, NL',
      country: 'nl',
      capabilities: ['Computes', 'VPCs', 'Premium Plans'],
      resolvers: { ipv4: '10.0.0.53, 10.0.1.53', ipv6: 'fd00::53' },
    },
    {
      id: 'lab-fra',
      label: 'Frankfurt, DE',
      country: 'de',
      capabilities: ['Computes'],
      resolvers: { ipv4: '10.1.0.53', ipv6: 'fd01::53' },
      site_type: 'distributed',
    },
  ],
  availability: [
    { region: 'lab-ams', plan: 'premium4096.7', available: true },
    { region: 'lab-fra', plan: 'premium4096.7', available: false },
  ],
}

/**
 * The operator's side of regions, with real processes: a server started on a catalogue file, and
 * `cloudplane region status` run against the same database while it serves.
 */
describe('operator region catalogue and outages', () => {
  let dir: string
  let database: ProcessDatabase | undefined
  let env: Record<string, string>
  let server: ServerProcess | undefined

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'cloudplane-catalogue-'))
    await writeFile(join(dir, 'regions.json'), JSON.stringify(CATALOGUE))
    database = await processDatabase(dir)
    env = { DATA_DIR: dir, DATABASE_URL: database.url, CLOUDPLANE_REGIONS_FILE: join(dir, 'regions.json') }
    server = await startServerProcess(env)
  })

  after(async () => {
    await server?.stop()
    await database?.drop()
    await rm(dir, { recursive: true, force: true })
  })

  const get = async (path: string) => {
    const res = await fetch(`${server?.baseUrl}/v4${path}`)
    return {
      status: res.status,
      body: (await res.json()) as Record<string, unknown> & { data: Array<Record<string, unknown>> },
    }
  }

  const cli = (...args: string[]) =>
    spawnSync(process.execPath, [CLI, ...args], {
      env: { ...process.env, LOG_LEVEL: 'warn', ...env },
      encoding: 'utf8',
    })

  it('serves the file’s regions in its order, in place of the shipped catalogue', async () => {
    const list = await get('/regions')
    assert.equal(list.status, 200)
    assert.deepEqual(list.body.data, [
      {
        id: 'lab-ams',
        label: 'Amsterdam, NL',
        country: 'nl',
        capabilities: ['Computes', 'VPCs', 'Premium Plans'],
        status: 'ok',
        resolvers: { ipv4: '10.0.0.53, 10.0.1.53', ipv6: 'fd00::53' },
        site_type: 'core',
      },
      {
        id: 'lab-fra',
        label: 'Frankfurt, DE',
        country: 'de',
        capabilities: ['Computes'],
        status: 'ok',
        resolvers: { ipv4: '10.1.0.53', ipv6: 'fd01::53' },
        site_type: 'distributed',
      },
    ])
    assert.equal((await get('/regions/us-east')).status, 404)
    const availability = await get('/regions/availability')
    assert.deepEqual(availability.body.data, [
      { region: 'lab-ams', plan: 'premium4096.7', available: true },
      { region: 'lab-fra', plan: 'premium4096.7', available: false },
    ])
  })

  it('marks a region outage from the CLI while the server runs, and back to ok', async () => {
    const marked = cli('region', 'status', 'lab-fra', 'outage')
    assert.equal(marked.status, 0, marked.stderr)
    assert.match(marked.stderr, /region lab-fra is now outage/)
    assert.equal((await get('/regions/lab-fra')).body.status, 'outage')
    assert.equal((await get('/regions/lab-ams')).body.status, 'ok')
  })

  it('keeps the operator’s status when the catalogue is loaded again on restart', async () => {
    await server?.stop()
    server = await startServerProcess(env)
    assert.equal((await get('/regions/lab-fra')).body.status, 'outage')
    const cleared = cli('region', 'status', 'lab-fra', 'ok')
    assert.equal(cleared.status, 0, cleared.stderr)
    assert.equal((await get('/regions/lab-fra')).body.status, 'ok')
  })

  it('the CLI refuses an unknown region or status with a usage error', () => {
    const unknown = cli('region', 'status', 'us-east', 'outage')
    assert.equal(unknown.status, 2)
    assert.match(unknown.stderr, /no region "us-east" in the catalogue/)
    const bad = cli('region', 'status', 'lab-fra', 'down')
    assert.equal(bad.status, 2)
    assert.match(bad.stderr, /region status needs <region-id> and outage or ok/)
  })

  it('a server given an invalid catalogue file stops with one line naming the problem', async () => {
    const file = join(dir, 'broken.json')
    await writeFile(file, JSON.stringify({ regions: [{ ...CATALOGUE.regions[0], country: 'Netherlands' }] }))
    const run = spawnSync(process.execPath, [CLI, 'serve'], {
      env: { ...process.env, ...env, CLOUDPLANE_REGIONS_FILE: file, PORT: '0' },
      encoding: 'utf8',
    })
    assert.equal(run.status, 2)
    assert.equal(
      run.stderr.trim(),
      'cloudplane: CLOUDPLANE_REGIONS_FILE: regions[0].country must be a two-letter lowercase country code',
    )
  })
})
