import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, firstConfig, power } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, type TestUser } from '../../../helpers/factories.ts'

describe('compute power actions', () => {
  const api = useTestApp()

  const status = async (owner: TestUser, id: number) =>
    (await api.request({ method: 'GET', url: `/v4/compute/instances/${id}`, headers: owner.headers })).body
      .status

  const activeFlags = async (owner: TestUser, id: number) => {
    const configs = await api.request({
      method: 'GET',
      url: `/v4/compute/instances/${id}/configs`,
      headers: owner.headers,
    })
    return configs.body.data.map((c: { interfaces: Array<{ active: boolean }> }) =>
      c.interfaces.map((i) => i.active),
    )
  }

  const actions = async (owner: TestUser) => {
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    return events.body.data.map((e: { action: string }) => e.action)
  }

  it('shutdown makes the instance offline and its interfaces inactive; boot reverses it', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'public' }, { purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    assert.deepEqual(await activeFlags(owner, instance.id), [[true, true]])
    await power(api, owner, instance.id, 'shutdown')
    assert.equal(await status(owner, instance.id), 'offline')
    assert.deepEqual(await activeFlags(owner, instance.id), [[false, false]])
    await power(api, owner, instance.id, 'shutdown')
    assert.equal(
      (await actions(owner)).filter((a: string) => a === 'compute_shutdown').length,
      1,
      'a second shutdown changes nothing',
    )
    await power(api, owner, instance.id, 'boot')
    assert.equal(await status(owner, instance.id), 'running')
    assert.deepEqual(await activeFlags(owner, instance.id), [[true, true]])
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: owner.headers })
    const [boot] = events.body.data
    assert.equal(boot.action, 'compute_boot')
    assert.equal(boot.status, 'finished')
    assert.equal(boot.secondary_entity.type, 'compute_config')
  })

  it('boots the named profile, the only one, or the last booted; reboot can switch profiles', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const instance = await createInstance(api, owner, {
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
    })
    const first = await firstConfig(api, owner, instance.id)
    const second = await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${instance.id}/configs`,
      headers: owner.headers,
      payload: {
        label: 'second',
        devices: {},
        interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id }],
      },
    })
    assert.deepEqual(await activeFlags(owner, instance.id), [[true], [false]])
    await power(api, owner, instance.id, 'reboot', { config_id: second.body.id })
    assert.equal(await status(owner, instance.id), 'running')
    assert.deepEqual(await activeFlags(owner, instance.id), [[false], [true]])
    await power(api, owner, instance.id, 'shutdown')
    await power(api, owner, instance.id, 'boot')
    assert.deepEqual(await activeFlags(owner, instance.id), [[false], [true]], 'the last booted profile')
    await power(api, owner, instance.id, 'reboot')
    assert.deepEqual(await activeFlags(owner, instance.id), [[false], [true]])
    await power(api, owner, instance.id, 'shutdown')
    await power(api, owner, instance.id, 'boot', { config_id: first.id })
    assert.deepEqual(await activeFlags(owner, instance.id), [[true], [false]])
    const reboots = (await actions(owner)).filter((a: string) => a === 'compute_reboot')
    assert.equal(reboots.length, 2)
  })

  it('reboot of an offline instance boots it', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner, { booted: false })
    await power(api, owner, instance.id, 'reboot')
    assert.equal(await status(owner, instance.id), 'running')
  })

  it('refuses to boot a running instance, one without profiles, or an ambiguous choice', async () => {
    const owner = await createAccount(api)
    const running = await createInstance(api, owner)
    const boot = (id: number, payload?: object) =>
      api.request({
        method: 'POST',
        url: `/v4/compute/instances/${id}/boot`,
        headers: owner.headers,
        ...(payload && { payload }),
      })
    assert.deepEqual((await boot(running.id)).body, {
      errors: [{ reason: 'This Compute is already running; reboot it to use another config profile' }],
    })
    const bare = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: { type: 'g6-nanode-1', region: 'us-iad' },
    })
    assert.deepEqual((await boot(bare.body.id)).body, {
      errors: [{ reason: 'This Compute has no config profile to boot' }],
    })
    const stopped = await createInstance(api, owner, { booted: false })
    await api.request({
      method: 'POST',
      url: `/v4/compute/instances/${stopped.id}/configs`,
      headers: owner.headers,
      payload: { label: 'second', devices: {} },
    })
    assert.deepEqual((await boot(stopped.id)).body, {
      errors: [
        { reason: 'This Compute has several config profiles; name the one to boot', field: 'config_id' },
      ],
    })
    assert.deepEqual((await boot(stopped.id, { config_id: 999999 })).body, {
      errors: [{ reason: 'Config profile not found', field: 'config_id' }],
    })
    const otherConfig = await firstConfig(api, owner, running.id)
    assert.equal(
      (await boot(stopped.id, { config_id: otherConfig.id })).status,
      400,
      "another instance's profile",
    )
    assert.deepEqual((await boot(stopped.id, { config_id: 'x' })).body, {
      errors: [{ field: 'config_id', reason: 'config_id must be an integer or null' }],
    })
    assert.equal(await status(owner, stopped.id), 'offline')
  })
})
