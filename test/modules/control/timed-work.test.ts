import assert from 'node:assert/strict'
import { beforeEach, describe, it } from 'node:test'
import { AdjustableClock, formatTimestamp } from '../../../src/common/time.ts'
import { JOB_HANDLERS } from '../../../src/jobs/handlers/index.ts'
import { JobRunner } from '../../../src/jobs/runner.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { signal } from '../../helpers/signal.ts'
import { gz, putData, rawImage, startUpload } from '../images/image-helpers.ts'
import { type ControlApp, useControlApp } from './control-app.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp

interface WireEvent {
  id: number
  action: string
  status: string
  percent_complete: number | null
  time_remaining: number | null
  entity: { id: number; type: string }
}

describe('asynchronous work that takes time', () => {
  const api = useControlApp()
  beforeEach(async () => {
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
    await api.admin('DELETE', '/faults')
  })

  /** The official clients' poller: the entity's events of one action, newest first. */
  const pollEvents = async (
    owner: TestUser,
    entity: { id: number | string; type: string },
    action: string,
  ) => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({
          'entity.id': entity.id,
          'entity.type': entity.type,
          action,
          '+order_by': 'created',
          '+order': 'desc',
        }),
      },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body.data as WireEvent[]
  }
  const instanceStatus = async (owner: TestUser, id: number) =>
    (await api.request({ method: 'GET', url: `/v4/compute/instances/${id}`, headers: owner.headers })).body
      .status
  const advance = async (by: string) =>
    assert.equal((await api.admin('POST', '/clock/advance', { by })).status, 200)
  const power = (owner: TestUser, id: number, action: string) =>
    api.request({ method: 'POST', url: `/v4/compute/instances/${id}/${action}`, headers: owner.headers })
  const createInstance = (owner: TestUser, extra: object = {}) =>
    api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: {
        type: 'g6-standard-1',
        region: 'us-ord',
        image: 'compute/debian12',
        root_pass: 'Correct-Horse-9',
        ...extra,
      },
    })

  it('is instant by default: the answer already shows the final state', async () => {
    assert.deepEqual((await api.admin('GET', '/work-durations')).body, {
      compute_create: 0,
      compute_boot: 0,
      compute_reboot: 0,
      compute_shutdown: 0,
      image_capture: 0,
      image_upload: 0,
    })
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    assert.equal(created.body.status, 'running')
    const [boot] = await pollEvents(owner, { id: created.body.id, type: 'compute' }, 'compute_boot')
    assert.equal(boot?.status, 'finished')
  })

  it('realistic durations: the preset, a kind set over it, and an instance taking them', async () => {
    const realistic = await api.admin('PUT', '/work-durations', { preset: 'realistic', image_upload: 5 })
    assert.equal(realistic.status, 200, JSON.stringify(realistic.body))
    assert.deepEqual(realistic.body, {
      compute_create: 30,
      compute_boot: 20,
      compute_reboot: 25,
      compute_shutdown: 10,
      image_capture: 90,
      image_upload: 5,
    })
    assert.deepEqual((await api.admin('GET', '/work-durations')).body, realistic.body)
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    assert.equal(created.body.status, 'provisioning')
    await advance('29s')
    assert.equal(await instanceStatus(owner, created.body.id), 'provisioning')
    await advance('3s')
    assert.equal(await instanceStatus(owner, created.body.id), 'booting')
    await advance('22s')
    assert.equal(await instanceStatus(owner, created.body.id), 'running')
    const refused = await api.admin('PUT', '/work-durations', { compute_boot: -1 })
    assert.equal(refused.status, 400)
    assert.equal((await api.admin('PUT', '/work-durations', { preset: 'slow' })).status, 400)
    assert.equal((await api.admin('GET', '/work-durations')).body.compute_boot, 20)
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('create: provisioning, then booting, then running; a poller sees scheduled, started, finished in order', async () => {
    await api.admin('PUT', '/work-durations', { compute_create: 30, compute_boot: 20 })
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    assert.equal(created.status, 200, JSON.stringify(created.body))
    assert.equal(created.body.status, 'provisioning')
    const compute = { id: created.body.id as number, type: 'compute' }

    const seen: string[] = []
    const watch = async (action: string) => {
      const [latest] = await pollEvents(owner, compute, action)
      assert.ok(latest, `no ${action} event`)
      if (seen.at(-1) !== latest.status) seen.push(latest.status)
      return latest
    }
    assert.equal((await watch('compute_create')).status, 'scheduled')
    await advance('1s')
    const started = await watch('compute_create')
    assert.equal(started.status, 'started')
    // Real time runs on under the virtual clock between the requests: a little may have passed.
    assert.ok((started.percent_complete as number) < 10, String(started.percent_complete))
    assert.ok((started.time_remaining as number) >= 28 && (started.time_remaining as number) <= 30)
    await advance('15s')
    const halfway = await watch('compute_create')
    assert.equal(halfway.status, 'started')
    assert.ok((halfway.percent_complete as number) >= 40 && (halfway.percent_complete as number) < 100)
    assert.ok((halfway.time_remaining as number) <= 15 && (halfway.time_remaining as number) > 0)
    assert.equal(await instanceStatus(owner, compute.id), 'provisioning')
    await advance('15s')
    assert.equal((await watch('compute_create')).status, 'finished')
    assert.deepEqual(seen, ['scheduled', 'started', 'finished'])

    // Then the boot, with its own event.
    assert.equal(await instanceStatus(owner, compute.id), 'booting')
    const [boot] = await pollEvents(owner, compute, 'compute_boot')
    // Scheduled at the create's end; it turns started a second later (which the clock may have passed).
    assert.ok(boot?.status === 'scheduled' || boot?.status === 'started', String(boot?.status))
    // Busy while booting.
    assert.equal((await power(owner, compute.id, 'shutdown')).status, 400)
    await advance('21s')
    assert.equal(await instanceStatus(owner, compute.id), 'running')
    assert.equal((await pollEvents(owner, compute, 'compute_boot'))[0]?.status, 'finished')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('one clock move past a create and its boot completes both, each at its own time', async () => {
    await api.admin('PUT', '/work-durations', { compute_create: 30, compute_boot: 20 })
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    assert.equal(created.body.status, 'provisioning')
    const compute = { id: created.body.id as number, type: 'compute' }
    // The create ends 31 s after the request (a second's start and 30 s), the boot 21 s later.
    await advance('120s')
    assert.equal(await instanceStatus(owner, compute.id), 'running')
    const [create] = await pollEvents(owner, compute, 'compute_create')
    const [boot] = await pollEvents(owner, compute, 'compute_boot')
    assert.equal(create?.status, 'finished')
    assert.equal(boot?.status, 'finished')
    const seconds = (from: string, to: string) => (Date.parse(`${to}Z`) - Date.parse(`${from}Z`)) / 1000
    const [createAt, bootAt] = [create, boot].map((e) => (e as unknown as { created: string }).created)
    assert.equal(seconds(createAt as string, bootAt as string), 31)
    assert.deepEqual(
      [create, boot].map((e) => (e as unknown as { duration: number }).duration),
      [31, 21],
    )
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('the profile an instance is booting with or shutting down cannot be deleted meanwhile', async () => {
    const owner = await createAccount(asTestApp(api))
    const id = (await createInstance(owner, { booted: false, interfaces: [{ purpose: 'public' }] })).body.id
    const [config] = (
      await api.request({ method: 'GET', url: `/v4/compute/instances/${id}/configs`, headers: owner.headers })
    ).body.data
    const deleteConfig = () =>
      api.request({
        method: 'DELETE',
        url: `/v4/compute/instances/${id}/configs/${config.id}`,
        headers: owner.headers,
      })
    await api.admin('PUT', '/work-durations', { compute_boot: 20, compute_shutdown: 20 })
    assert.equal((await power(owner, id, 'boot')).status, 200)
    const whileBooting = await deleteConfig()
    assert.equal(whileBooting.status, 400)
    assert.deepEqual(whileBooting.body, {
      errors: [
        { reason: 'The config profile a Compute is booting with cannot be deleted; wait for it to finish' },
      ],
    })
    await advance('22s')
    assert.equal(await instanceStatus(owner, id), 'running')
    assert.equal((await power(owner, id, 'shutdown')).status, 200)
    assert.equal((await deleteConfig()).status, 400)
    await advance('22s')
    assert.equal(await instanceStatus(owner, id), 'offline')
    assert.equal((await deleteConfig()).status, 200)
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('shutdown goes through shutting_down, reboot through rebooting, boot through booting', async () => {
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    const id = created.body.id as number
    await api.admin('PUT', '/work-durations', { compute_shutdown: 10, compute_reboot: 12, compute_boot: 8 })

    assert.equal((await power(owner, id, 'shutdown')).status, 200)
    assert.equal(await instanceStatus(owner, id), 'shutting_down')
    await advance('11s')
    assert.equal(await instanceStatus(owner, id), 'offline')

    assert.equal((await power(owner, id, 'boot')).status, 200)
    assert.equal(await instanceStatus(owner, id), 'booting')
    await advance('9s')
    assert.equal(await instanceStatus(owner, id), 'running')

    assert.equal((await power(owner, id, 'reboot')).status, 200)
    assert.equal(await instanceStatus(owner, id), 'rebooting')
    await advance('5s')
    const [reboot] = await pollEvents(owner, { id, type: 'compute' }, 'compute_reboot')
    assert.equal(reboot?.status, 'started')
    assert.ok((reboot?.time_remaining as number) > 0)
    await advance('8s')
    assert.equal(await instanceStatus(owner, id), 'running')
    assert.equal((await pollEvents(owner, { id, type: 'compute' }, 'compute_reboot'))[0]?.status, 'finished')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('a clock move answers once the work it made due is done, even where another runner holds it', async () => {
    const owner = await createAccount(asTestApp(api))
    const id = (await createInstance(owner)).body.id as number
    await api.admin('PUT', '/work-durations', { compute_shutdown: 30 })
    assert.equal((await power(owner, id, 'shutdown')).status, 200)

    // Another process, whose clock already reads the moved time, claims the shutdown's steps and
    // is still running one of them when this process is asked to move the clock.
    const ahead = new AdjustableClock()
    ahead.set(new Date(api.clock.now().getTime() + 40_000))
    const claimed = signal()
    const gate = signal()
    const other = new JobRunner(
      { db: api.db, blobs: api.blobs, clock: ahead, log: api.app.log },
      {
        handlers: {
          ...JOB_HANDLERS,
          'instance-work': async (context, payload) => {
            claimed.fire()
            await gate.fired
            await JOB_HANDLERS['instance-work'](context, payload)
          },
        },
      },
    )
    const held = other.runPendingJobs()
    await claimed.fired
    const releaseLater = setTimeout(gate.fire, 300)
    await advance('40s')
    assert.equal(await instanceStatus(owner, id), 'offline')
    clearTimeout(releaseLater)
    gate.fire()
    await held
  })

  it('a job fault rule fails the work: a failed event, the instance left as the real service leaves it', async () => {
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner, { booted: false })
    const id = created.body.id as number
    assert.equal(created.body.status, 'offline')
    await api.admin('PUT', '/work-durations', { compute_boot: 5 })
    const rule = await api.admin('POST', '/faults', { job: 'compute_boot', times: 1 })
    assert.equal(rule.status, 200, JSON.stringify(rule.body))

    assert.equal((await power(owner, id, 'boot')).status, 200)
    await advance('6s')
    assert.equal(await instanceStatus(owner, id), 'offline')
    const [failed] = await pollEvents(owner, { id, type: 'compute' }, 'compute_boot')
    assert.equal(failed?.status, 'failed')
    assert.equal((await api.admin('GET', '/faults')).body.data[0].fired, 1)

    // The rule is used up: the next boot succeeds.
    assert.equal((await power(owner, id, 'boot')).status, 200)
    await advance('6s')
    assert.equal(await instanceStatus(owner, id), 'running')
    await api.admin('DELETE', '/faults')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
    assert.equal((await api.admin('POST', '/faults', { job: 'nothing_like_it' })).status, 400)
  })

  it('a failed create, shutdown or reboot leaves the instance as the real service does', async () => {
    const owner = await createAccount(asTestApp(api))
    await api.admin('PUT', '/work-durations', { compute_create: 5, compute_shutdown: 5, compute_reboot: 5 })

    // A create that fails: offline, and no boot follows.
    await api.admin('POST', '/faults', { job: 'compute_create', times: 1 })
    const created = await createInstance(owner)
    assert.equal(created.body.status, 'provisioning')
    const failedCreate = { id: created.body.id as number, type: 'compute' }
    await advance('7s')
    assert.equal(await instanceStatus(owner, failedCreate.id), 'offline')
    assert.equal((await pollEvents(owner, failedCreate, 'compute_create'))[0]?.status, 'failed')
    assert.deepEqual(await pollEvents(owner, failedCreate, 'compute_boot'), [])

    // A running instance whose shutdown fails keeps running, on the profile it booted: its
    // interfaces stay active. One whose reboot fails is offline, its interfaces inactive.
    await api.admin('PUT', '/work-durations', { compute_create: 0 })
    const running = await createInstance(owner, { interfaces: [{ purpose: 'public' }] })
    const id = running.body.id as number
    assert.equal(running.body.status, 'running')
    const [config] = (
      await api.request({ method: 'GET', url: `/v4/compute/instances/${id}/configs`, headers: owner.headers })
    ).body.data
    const interfacesActive = async () =>
      (
        await api.request({
          method: 'GET',
          url: `/v4/compute/instances/${id}/configs/${config.id}/interfaces`,
          headers: owner.headers,
        })
      ).body.map((i: { active: boolean }) => i.active)
    assert.deepEqual(await interfacesActive(), [true])
    await api.admin('POST', '/faults', { job: 'compute_shutdown', times: 1 })
    assert.equal((await power(owner, id, 'shutdown')).status, 200)
    assert.equal(await instanceStatus(owner, id), 'shutting_down')
    await advance('7s')
    assert.equal(await instanceStatus(owner, id), 'running')
    assert.equal((await pollEvents(owner, { id, type: 'compute' }, 'compute_shutdown'))[0]?.status, 'failed')
    assert.deepEqual(await interfacesActive(), [true])

    await api.admin('POST', '/faults', { job: 'compute_reboot', times: 1 })
    assert.equal((await power(owner, id, 'reboot')).status, 200)
    assert.equal(await instanceStatus(owner, id), 'rebooting')
    await advance('7s')
    assert.equal(await instanceStatus(owner, id), 'offline')
    const [reboot] = await pollEvents(owner, { id, type: 'compute' }, 'compute_reboot')
    assert.equal(reboot?.status, 'failed')
    assert.equal(reboot?.percent_complete, null)
    assert.deepEqual(await interfacesActive(), [false])
    const fired = (await api.admin('GET', '/faults')).body.data.map((r: { fired: number }) => r.fired)
    assert.deepEqual(fired, [1, 1, 1])
    await api.admin('DELETE', '/faults')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('a job fault rule with a probability and a seed fails the same pieces of work again', async () => {
    const owner = await createAccount(asTestApp(api))
    await api.admin('PUT', '/work-durations', { compute_boot: 2 })
    const run = async () => {
      const rule = await api.admin('POST', '/faults', {
        job: 'compute_boot',
        probability: 0.5,
        seed: 'boots',
      })
      assert.equal(rule.status, 200, JSON.stringify(rule.body))
      const created = await createInstance(owner, { booted: false })
      const id = created.body.id as number
      const outcomes: string[] = []
      for (let i = 0; i < 12; i++) {
        assert.equal((await power(owner, id, 'boot')).status, 200)
        await advance('4s')
        const status = await instanceStatus(owner, id)
        outcomes.push(status)
        if (status === 'running') assert.equal((await power(owner, id, 'shutdown')).status, 200)
      }
      const listed = await api.admin('GET', '/faults')
      assert.equal(listed.body.data[0].fired, outcomes.filter((s) => s === 'offline').length)
      await api.admin('DELETE', '/faults')
      return outcomes
    }
    const first = await run()
    assert.ok(first.includes('running') && first.includes('offline'), first.join(','))
    assert.deepEqual(await run(), first)
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it("a poller asking since its request's time sees its own work's events, newest first", async () => {
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    const id = created.body.id as number
    await api.admin('PUT', '/work-durations', { compute_reboot: 6 })
    assert.equal((await power(owner, id, 'reboot')).status, 200)
    await advance('8s')
    // The second reboot, as a client that waits for its own request polls for it: the entity's
    // events of the action created since it asked, newest first.
    await advance('5s')
    const asked = formatTimestamp(api.clock.now())
    assert.equal((await power(owner, id, 'reboot')).status, 200)
    const all = await pollEvents(owner, { id, type: 'compute' }, 'compute_reboot')
    assert.deepEqual(
      all.map((e) => e.status),
      ['scheduled', 'finished'],
    )
    assert.ok(all[0] !== undefined && all[1] !== undefined && all[0].id > all[1].id)
    const since = async () => {
      const res = await api.request({
        method: 'GET',
        url: '/v4/account/events',
        headers: {
          ...owner.headers,
          'x-filter': JSON.stringify({
            'entity.id': id,
            'entity.type': 'compute',
            action: 'compute_reboot',
            created: { '+gte': asked },
            '+order_by': 'created',
            '+order': 'desc',
          }),
        },
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      return res.body.data as WireEvent[]
    }
    const seen: string[] = []
    for (const by of ['1s', '3s', '4s']) {
      const events = await since()
      assert.equal(events.length, 1)
      seen.push((events[0] as WireEvent).status)
      await advance(by)
    }
    seen.push(((await since())[0] as WireEvent).status)
    assert.deepEqual(seen, ['scheduled', 'started', 'started', 'finished'])
    assert.equal(await instanceStatus(owner, id), 'running')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('an image capture is creating until done; a failed capture leaves no image', async () => {
    const owner = await createAccount(asTestApp(api))
    const created = await createInstance(owner)
    const disks = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${created.body.id}/disks`,
      headers: owner.headers,
    })
    const disk = disks.body.data.find((d: { filesystem: string }) => d.filesystem === 'ext4')
    await api.admin('PUT', '/work-durations', { image_capture: 60 })
    const capture = () =>
      api.request({
        method: 'POST',
        url: '/v4/images',
        headers: owner.headers,
        payload: { disk_id: disk.id },
      })
    const image = (await capture()).body
    assert.equal(image.status, 'creating')
    const compute = { id: created.body.id, type: 'compute' }
    const imagize = async () => (await pollEvents(owner, compute, 'disk_imagize'))[0]
    assert.equal((await imagize())?.status, 'scheduled')
    await advance('1s')
    const started = await imagize()
    assert.equal(started?.status, 'started')
    assert.ok((started?.time_remaining as number) >= 58 && (started?.time_remaining as number) <= 60)
    await advance('30s')
    const getImage = (imageId: string) =>
      api.request({ method: 'GET', url: `/v4/images/${imageId}`, headers: owner.headers })
    assert.equal((await getImage(image.id)).body.status, 'creating')
    const halfway = await imagize()
    assert.ok((halfway?.percent_complete as number) >= 45 && (halfway?.percent_complete as number) < 100)
    assert.ok((halfway?.time_remaining as number) <= 30 && (halfway?.time_remaining as number) > 0)
    await advance('31s')
    assert.equal((await getImage(image.id)).body.status, 'available')
    const done = await imagize()
    assert.equal(done?.status, 'finished')
    assert.equal(done?.percent_complete, 100)

    await api.admin('POST', '/faults', { job: 'image_capture', times: 1 })
    const doomed = (await capture()).body
    await advance('61s')
    assert.equal((await getImage(doomed.id)).status, 404)
    const [failed] = await pollEvents(owner, { id: created.body.id, type: 'compute' }, 'disk_imagize')
    assert.equal(failed?.status, 'failed')
    // Removed as an image never made is, with an `image_delete` event.
    const removed = await pollEvents(
      owner,
      { id: Number(doomed.id.split('/')[1]), type: 'image' },
      'image_delete',
    )
    assert.equal(removed.length, 1)
    await api.admin('DELETE', '/faults')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })

  it('an upload is checked before it is available: its event goes scheduled, started, finished', async () => {
    const owner = await createAccount(asTestApp(api))
    const getImage = (imageId: string) =>
      api.request({ method: 'GET', url: `/v4/images/${imageId}`, headers: owner.headers })
    // Instant by default: available as the data is taken.
    const quick = await startUpload(asTestApp(api), owner, { label: 'quick', region: 'us-iad' })
    const taken = await putData(asTestApp(api), quick.path, gz(rawImage(4096, 'quick')))
    assert.equal(taken.body.status, 'available')

    await api.admin('PUT', '/work-durations', { image_upload: 40 })
    const upload = await startUpload(asTestApp(api), owner, { label: 'checked', region: 'us-iad' })
    const put = await putData(asTestApp(api), upload.path, gz(rawImage(4096, 'checked')))
    assert.equal(put.status, 200, JSON.stringify(put.body))
    assert.equal(put.body.status, 'pending_upload')
    assert.ok(put.body.size > 0)
    // The URL is spent, though the image is not available yet.
    assert.equal((await putData(asTestApp(api), upload.path, gz(rawImage(4096, 'again')))).status, 403)
    const image = { id: Number(upload.image.id.split('/')[1]), type: 'image' }
    const seen: string[] = []
    const watch = async () => {
      const [latest] = await pollEvents(owner, image, 'image_upload')
      assert.ok(latest, 'no image_upload event')
      if (seen.at(-1) !== latest.status) seen.push(latest.status)
      return latest
    }
    assert.equal((await watch()).status, 'scheduled')
    await advance('1s')
    const started = await watch()
    assert.equal(started.status, 'started')
    assert.ok((started.time_remaining as number) >= 38 && (started.time_remaining as number) <= 40)
    await advance('20s')
    const halfway = await watch()
    assert.ok((halfway.percent_complete as number) >= 40 && (halfway.percent_complete as number) < 100)
    assert.ok((halfway.time_remaining as number) <= 20 && (halfway.time_remaining as number) > 0)
    assert.equal((await getImage(upload.image.id)).body.status, 'pending_upload')
    // Not deployable while it is being checked.
    assert.equal((await createInstance(owner, { image: upload.image.id, region: 'us-iad' })).status, 400)
    await advance('20s')
    const finished = await watch()
    assert.equal(finished.percent_complete, 100)
    assert.deepEqual(seen, ['scheduled', 'started', 'finished'])
    assert.equal((await getImage(upload.image.id)).body.status, 'available')

    // A job fault rule fails the check: the event fails and the image is removed with its data.
    await api.admin('POST', '/faults', { job: 'image_upload', times: 1 })
    const doomed = await startUpload(asTestApp(api), owner, { label: 'doomed', region: 'us-iad' })
    await putData(asTestApp(api), doomed.path, gz(rawImage(4096, 'doomed')))
    await advance('42s')
    assert.equal((await getImage(doomed.image.id)).status, 404)
    const doomedEntity = { id: Number(doomed.image.id.split('/')[1]), type: 'image' }
    assert.equal((await pollEvents(owner, doomedEntity, 'image_upload'))[0]?.status, 'failed')
    assert.equal((await pollEvents(owner, doomedEntity, 'image_delete'))[0]?.status, 'notification')
    await api.admin('DELETE', '/faults')
    await api.admin('PUT', '/work-durations', { preset: 'instant' })
  })
})
