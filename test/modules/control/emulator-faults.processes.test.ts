import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { useServerPair } from '../../helpers/processes.ts'
import { waitFor } from '../../helpers/wait-for.ts'

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))
const ADMIN_KEY = 'faults-admin-key-0123456789abc'
const TOKEN = 'd2'.repeat(32)
const auth = { authorization: `Bearer ${TOKEN}` }
const admin = { 'x-cloudplane-admin-key': ADMIN_KEY }

async function cli(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args, '--admin-key', ADMIN_KEY], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, LOG_LEVEL: 'warn' },
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    stdout += d
  })
  child.stderr.on('data', (d) => {
    stderr += d
  })
  const [code] = await once(child, 'exit')
  return { code: code as number, stdout, stderr }
}

describe('journal, faults and timed work with two API processes on one database', () => {
  const pair = useServerPair('cloudplane-faults-', () => ({
    CLOUDPLANE_CONTROL: 'on',
    CLOUDPLANE_ADMIN_KEY: ADMIN_KEY,
    CLOUDPLANE_BOOTSTRAP_TOKEN: TOKEN,
  }))

  it('a rule added through one process holds on the other; a once-only rule fires once in all', async () => {
    const [first, second] = pair.servers
    const added = await cli([
      'fault',
      'add',
      '--path',
      '/v4/vpcs',
      '--status',
      '503',
      '--times',
      '1',
      '--url',
      first.baseUrl,
    ])
    assert.equal(added.code, 0, added.stderr)
    const statuses = [
      (await fetch(`${second.baseUrl}/v4/vpcs`, { headers: auth })).status,
      (await fetch(`${first.baseUrl}/v4/vpcs`, { headers: auth })).status,
      (await fetch(`${second.baseUrl}/v4/vpcs`, { headers: auth })).status,
    ]
    assert.deepEqual(statuses, [503, 200, 200])
    const listed = await cli(['fault', 'list', '--url', second.baseUrl])
    assert.equal(JSON.parse(listed.stdout).data[0].fired, 1)

    const preset = await cli(['fault', 'preset', 'maintenance', '--url', second.baseUrl])
    assert.equal(preset.code, 0, preset.stderr)
    const maintenance = await fetch(`${first.baseUrl}/v4/regions`)
    assert.equal(maintenance.status, 503)
    assert.equal(maintenance.headers.get('x-maintenance-mode'), 'true')
    const cleared = await cli(['fault', 'clear', '--url', first.baseUrl])
    assert.equal(cleared.code, 0, cleared.stderr)
    assert.equal(JSON.parse(cleared.stdout).deleted, 2)
    assert.equal((await fetch(`${second.baseUrl}/v4/regions`)).status, 200)
  })

  it('one journal for both processes: listed, exported as curl and cleared from either', async () => {
    const [first, second] = pair.servers
    assert.equal((await cli(['journal', 'clear', '--url', first.baseUrl])).code, 0)
    await fetch(`${first.baseUrl}/v4/profile`, { headers: auth })
    await fetch(`${second.baseUrl}/v4/account`, { headers: auth })
    // Each process writes its entries in batches, a moment after the request.
    const entries = await waitFor(
      async () => {
        const res = await cli(['journal', 'list', '--path', '/v4/', '--url', first.baseUrl])
        const data = JSON.parse(res.stdout).data as Array<{ id: number; path: string; process: string }>
        return data.length === 2 ? data : undefined
      },
      { timeout: 10_000, interval: 100, message: 'both entries in the journal' },
    )
    assert.deepEqual(entries.map((e) => e.path).sort(), ['/v4/account', '/v4/profile'])
    assert.notEqual(entries[0]?.process, entries[1]?.process)
    const profile = entries.find((e) => e.path === '/v4/profile') as { id: number }
    const curl = await cli(['journal', 'export-curl', String(profile.id), '--url', second.baseUrl])
    assert.equal(curl.code, 0, curl.stderr)
    assert.match(curl.stdout, /^curl '.*\/v4\/profile' -H "Authorization: Bearer \$CLOUDPLANE_TOKEN"\n$/)
    assert.ok(!curl.stdout.includes(TOKEN))
    assert.equal((await cli(['journal', 'clear', '--url', second.baseUrl])).code, 0)
    const after = await fetch(`${first.baseUrl}/_cloudplane/journal?path=/v4/profile`, { headers: admin })
    assert.equal(((await after.json()) as { results: number }).results, 0)
  })

  it('timed work started on one process completes when the clock is advanced through the other', async () => {
    const [first, second] = pair.servers
    const set = await cli(['work', 'durations', '--compute-shutdown', '30', '--url', second.baseUrl])
    assert.equal(set.code, 0, set.stderr)
    assert.equal(JSON.parse(set.stdout).compute_shutdown, 30)
    const created = await fetch(`${first.baseUrl}/v4/compute/instances`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'g6-nanode-1',
        region: 'us-ord',
        image: 'compute/debian12',
        root_pass: 'Correct-Horse-9',
      }),
    })
    assert.equal(created.status, 200)
    const { id } = (await created.json()) as { id: number }
    const status = async (base: string) =>
      (
        (await (await fetch(`${base}/v4/compute/instances/${id}`, { headers: auth })).json()) as {
          status: string
        }
      ).status
    assert.equal(
      (await fetch(`${first.baseUrl}/v4/compute/instances/${id}/shutdown`, { method: 'POST', headers: auth }))
        .status,
      200,
    )
    assert.equal(await status(second.baseUrl), 'shutting_down')
    const advanced = await cli(['clock', 'advance', '40s', '--url', second.baseUrl])
    assert.equal(advanced.code, 0, advanced.stderr)
    assert.equal(await status(first.baseUrl), 'offline')
    await cli(['work', 'durations', '--preset', 'instant', '--url', first.baseUrl])
    await cli(['clock', 'resume', '--url', first.baseUrl])
  })

  it('a region marked outage through the CLI refuses creates on both processes', async () => {
    const [first, second] = pair.servers
    assert.equal((await cli(['region', 'outage', 'us-iad', 'outage', '--url', first.baseUrl])).code, 0)
    const create = (base: string) =>
      fetch(`${base}/v4/vpcs`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ label: 'in-outage', region: 'us-iad' }),
      })
    for (const server of [first, second]) {
      const res = await create(server.baseUrl)
      assert.equal(res.status, 400)
      assert.deepEqual(await res.json(), {
        errors: [{ reason: 'Region us-iad is currently unavailable', field: 'region' }],
      })
    }
    assert.equal((await cli(['region', 'outage', 'us-iad', 'ok', '--url', second.baseUrl])).code, 0)
    assert.equal((await create(first.baseUrl)).status, 200)
  })
})
