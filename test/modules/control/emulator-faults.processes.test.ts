import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { REALISTIC_WORK } from '../../../src/jobs/work-durations.ts'
import { runScript, type ServerProcess, useServerPair } from '../../helpers/processes.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { gz, rawImage } from '../images/image-helpers.ts'

const CLI = fileURLToPath(new URL('../../../src/cli.ts', import.meta.url))
const ADMIN_KEY = 'faults-admin-key-0123456789abc'
const TOKEN = 'd2'.repeat(32)
const auth = { authorization: `Bearer ${TOKEN}` }
const admin = { 'x-cloudplane-admin-key': ADMIN_KEY }

const cli = (args: string[]) => runScript(CLI, [...args, '--admin-key', ADMIN_KEY])

interface Answer {
  status: number
  // biome-ignore lint/suspicious/noExplicitAny: a parsed JSON body, asserted on by the tests
  body: any
}

async function call(server: ServerProcess, method: string, path: string, headers: object, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  })
  const text = await res.text()
  return { status: res.status, body: text === '' ? undefined : JSON.parse(text) } as Answer
}

/** A control API call to one process. */
const control = (server: ServerProcess, method: string, path: string, body?: unknown) =>
  call(server, method, `/_cloudplane${path}`, admin, body)
const get = (server: ServerProcess, path: string) => call(server, 'GET', path, auth)

async function createUpload(server: ServerProcess, label: string) {
  const res = await call(server, 'POST', '/v4/images/upload', auth, { label, region: 'us-ord' })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body as { upload_to: string; image: { id: string } }
}

/** PUTs image data to an upload URL (it names the process that made the upload). */
async function putImageData(uploadTo: string, marker: string): Promise<Answer> {
  const res = await fetch(uploadTo, {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: gz(rawImage(4096, marker)),
  })
  return { status: res.status, body: await res.json() }
}

/** The official clients' poller: the entity's events of one action, newest first. */
async function pollEvents(server: ServerProcess, entity: { id: number; type: string }, action: string) {
  const res = await call(server, 'GET', '/v4/account/events', {
    ...auth,
    'x-filter': JSON.stringify({
      'entity.id': entity.id,
      'entity.type': entity.type,
      action,
      '+order_by': 'created',
      '+order': 'desc',
    }),
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body.data as Array<{ status: string; percent_complete: number | null }>
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

  it('an upload made through one process is checked as the clock moves through the other', async () => {
    const [first, second] = pair.servers
    const durations = await control(second, 'PUT', '/work-durations', {
      image_upload: REALISTIC_WORK.image_upload,
    })
    assert.equal(durations.status, 200, JSON.stringify(durations.body))
    const upload = await createUpload(first, 'checked-across')
    const put = await putImageData(upload.upload_to, 'checked-across')
    assert.equal(put.status, 200, JSON.stringify(put.body))
    assert.equal(put.body.status, 'pending_upload')
    const image = { id: Number(upload.image.id.split('/')[1]), type: 'image' }

    // Being checked: seen so from the other process.
    const pending = await get(second, `/v4/images/${upload.image.id}`)
    assert.equal(pending.body.status, 'pending_upload')
    const [checking] = await pollEvents(second, image, 'image_upload')
    assert.ok(checking?.status === 'scheduled' || checking?.status === 'started', JSON.stringify(checking))
    assert.equal((await control(second, 'POST', '/clock/advance', { by: '62s' })).status, 200)
    for (const server of [second, first]) {
      // Due work is done before the advance answers, whichever process's runner held a step of it.
      const available = await get(server, `/v4/images/${upload.image.id}`)
      assert.equal(available.body.status, 'available')
      const [finished] = await pollEvents(server, image, 'image_upload')
      assert.equal(finished?.status, 'finished')
      assert.equal(finished?.percent_complete, 100)
    }

    // A job fault rule added through the second process fails the check of an upload made
    // through the first: the event fails and the image is gone, from either side.
    const rule = await cli(['fault', 'add', '--job', 'image_upload', '--times', '1', '--url', second.baseUrl])
    assert.equal(rule.code, 0, rule.stderr)
    assert.deepEqual(JSON.parse(rule.stdout).effect, { kind: 'job', job: 'image_upload' })
    const doomed = await createUpload(first, 'doomed-across')
    assert.equal((await putImageData(doomed.upload_to, 'doomed-across')).status, 200)
    const doomedEntity = { id: Number(doomed.image.id.split('/')[1]), type: 'image' }
    assert.equal((await control(second, 'POST', '/clock/advance', { by: '62s' })).status, 200)
    for (const server of [first, second]) {
      assert.equal((await get(server, `/v4/images/${doomed.image.id}`)).status, 404)
      assert.equal((await pollEvents(server, doomedEntity, 'image_upload'))[0]?.status, 'failed')
      assert.equal((await pollEvents(server, doomedEntity, 'image_delete'))[0]?.status, 'notification')
    }
    const listed = await control(first, 'GET', '/faults')
    assert.equal(listed.body.data[0].fired, 1)
    assert.equal((await control(first, 'DELETE', '/faults')).status, 200)
    assert.equal((await control(first, 'PUT', '/work-durations', { preset: 'instant' })).status, 200)
    assert.equal((await control(first, 'POST', '/clock/resume')).status, 200)
  })

  it('the offline preset applied through one process drops every API request on both; the controls still answer', async () => {
    const [first, second] = pair.servers
    const applied = await cli(['fault', 'preset', 'offline', '--url', first.baseUrl])
    assert.equal(applied.code, 0, applied.stderr)
    assert.equal(JSON.parse(applied.stdout).data[0].preset, 'offline')
    const requests: Array<[string, RequestInit]> = [
      ['/v4/regions', {}],
      ['/v4/profile', { headers: auth }],
      [
        '/v4/vpcs',
        {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ label: 'while-offline', region: 'us-ord' }),
        },
      ],
    ]
    // The service is unreachable: the connection closes with no status, body or headers.
    for (const server of [second, first]) {
      for (const [path, init] of requests) {
        await assert.rejects(fetch(`${server.baseUrl}${path}`, init), TypeError, `${server.baseUrl}${path}`)
      }
    }
    // The control API and the health checks answer on both, and count every refusal.
    for (const server of [first, second]) {
      assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200)
      const listed = await control(server, 'GET', '/faults')
      assert.equal(listed.status, 200)
      assert.equal(listed.body.data[0].fired, requests.length * 2)
    }
    const cleared = await control(second, 'DELETE', '/faults')
    assert.equal(cleared.body.deleted, 1)
    for (const server of [first, second]) {
      assert.equal((await fetch(`${server.baseUrl}/v4/regions`)).status, 200)
      // The write refused while offline changed nothing.
      const vpcs = await get(server, '/v4/vpcs')
      assert.equal(vpcs.status, 200)
      assert.ok(!vpcs.body.data.some((v: { label: string }) => v.label === 'while-offline'))
    }
  })

  it('the maintenance preset through one process answers on the other as the real service does', async () => {
    const [first, second] = pair.servers
    assert.equal((await control(second, 'POST', '/faults/presets/maintenance', {})).status, 200)
    for (const server of [first, second]) {
      const res = await fetch(`${server.baseUrl}/v4/profile`, { headers: auth })
      assert.equal(res.status, 503)
      assert.equal(res.headers.get('x-maintenance-mode'), 'true')
      assert.ok(Number(res.headers.get('retry-after')) > 0)
      assert.deepEqual(await res.json(), { errors: [{ reason: 'Currently in maintenance mode.' }] })
    }
    assert.equal((await control(first, 'DELETE', '/faults')).body.deleted, 1)
    assert.equal((await fetch(`${second.baseUrl}/v4/profile`, { headers: auth })).status, 200)
  })

  it('the unstable preset with a seed fails a share of requests on both, the same ones with the same seed', async () => {
    const [first, second] = pair.servers
    // Applied once through the CLI and once through the API: the same seed, the same failures.
    const run = async (apply: () => Promise<unknown>) => {
      await apply()
      const statuses: number[] = []
      for (let i = 0; i < 20; i++) {
        const res = await fetch(`${(i % 2 === 0 ? first : second).baseUrl}/v4/regions`)
        statuses.push(res.status)
        if (res.status === 500)
          assert.deepEqual(await res.json(), { errors: [{ reason: 'Please try again' }] })
        else await res.arrayBuffer()
      }
      const listed = await control(second, 'GET', '/faults')
      assert.equal(listed.body.data[0].preset, 'unstable')
      assert.equal(listed.body.data[0].probability, 0.5)
      assert.equal(listed.body.data[0].seed, 'pair-seed')
      assert.equal(listed.body.data[0].fired, statuses.filter((s) => s === 500).length)
      assert.equal((await control(second, 'DELETE', '/faults')).body.deleted, 1)
      return statuses
    }
    const firstRun = await run(async () => {
      const applied = await cli([
        'fault',
        'preset',
        'unstable',
        '--share',
        '0.5',
        '--seed',
        'pair-seed',
        '--url',
        first.baseUrl,
      ])
      assert.equal(applied.code, 0, applied.stderr)
    })
    // Both processes fail some and serve some.
    for (const parity of [0, 1]) {
      const own = firstRun.filter((_, i) => i % 2 === parity)
      assert.ok(own.includes(500) && own.includes(200), firstRun.join(','))
    }
    const again = await run(async () => {
      const applied = await control(second, 'POST', '/faults/presets/unstable', {
        share: 0.5,
        seed: 'pair-seed',
      })
      assert.equal(applied.status, 200, JSON.stringify(applied.body))
    })
    assert.deepEqual(again, firstRun)
  })
})
