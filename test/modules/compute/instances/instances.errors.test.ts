import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance, createVpc, ROOT_PASS } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount, createUser, grantGlobal } from '../../../helpers/factories.ts'

describe('compute instance refusals', () => {
  const api = useTestApp()

  const create = (headers: Record<string, string>, payload: object) =>
    api.request({ method: 'POST', url: '/v4/compute/instances', headers, payload })

  it('refuses an unknown type, an unknown region and an unknown image, together', async () => {
    const owner = await createAccount(api)
    const res = await create(owner.headers, {
      type: 'g6-huge-99',
      region: 'xx-nowhere',
      image: 'compute/windows95',
      root_pass: ROOT_PASS,
    })
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'A valid plan type by that ID was not found', field: 'type' },
        { reason: 'Region not found', field: 'region' },
        { reason: 'Image not found', field: 'image' },
      ],
    })
    const missing = await create(owner.headers, {})
    assert.deepEqual(
      missing.body.errors.map((e: { field: string }) => e.field),
      ['region', 'type'],
    )
    const list = await api.request({ method: 'GET', url: '/v4/compute/instances', headers: owner.headers })
    assert.equal(list.body.results, 0)
  })

  it('needs a strong enough root_pass to deploy an image', async () => {
    const owner = await createAccount(api)
    const base = { type: 'g6-nanode-1', region: 'us-iad', image: 'compute/debian12' }
    assert.deepEqual((await create(owner.headers, base)).body, {
      errors: [{ reason: 'root_pass is required when deploying an image', field: 'root_pass' }],
    })
    assert.deepEqual((await create(owner.headers, { ...base, root_pass: 'abcdefgh' })).body, {
      errors: [{ reason: 'Password does not meet strength requirement.', field: 'root_pass' }],
    })
    assert.deepEqual((await create(owner.headers, { ...base, root_pass: 'Ab1' })).body, {
      errors: [{ field: 'root_pass', reason: 'root_pass must be 7-128 characters' }],
    })
  })

  it('deploys only available images, and only ones that fit the type', async () => {
    const owner = await createAccount(api)
    const upload = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: { label: 'pending', region: 'us-iad' },
    })
    assert.equal(upload.status, 200, JSON.stringify(upload.body))
    const pending = await create(owner.headers, {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: upload.body.image.id,
      root_pass: ROOT_PASS,
    })
    assert.deepEqual(pending.body, {
      errors: [{ reason: 'Only available images can be deployed', field: 'image' }],
    })
    const stranger = await createAccount(api)
    const foreign = await create(stranger.headers, {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: upload.body.image.id,
      root_pass: ROOT_PASS,
    })
    assert.deepEqual(foreign.body, { errors: [{ reason: 'Image not found', field: 'image' }] })
    const tooBig = await create(owner.headers, {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: 'compute/slackware15.0',
      root_pass: ROOT_PASS,
      swap_size: 20000,
    })
    assert.deepEqual(tooBig.body, {
      errors: [{ reason: 'The image needs 11000 MB; this type leaves 5600 MB after swap', field: 'type' }],
    })
    const fits = await create(owner.headers, {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: 'compute/slackware15.0',
      root_pass: ROOT_PASS,
      swap_size: 14600,
    })
    assert.equal(fits.status, 200, '25600 - 14600 leaves exactly the 11000 MB the image needs')
  })

  it('refuses bad and taken labels', async () => {
    const owner = await createAccount(api)
    await createInstance(api, owner, { label: 'taken' })
    const base = { type: 'g6-nanode-1', region: 'us-iad' }
    const taken = await create(owner.headers, { ...base, label: 'taken' })
    assert.deepEqual(taken.body, {
      errors: [{ reason: 'Label must be unique among your Computes', field: 'label' }],
    })
    for (const label of ['ab', '-lead', 'trail_', 'two..dots', 'sp ace', 'x'.repeat(65)]) {
      const res = await create(owner.headers, { ...base, label })
      assert.equal(res.status, 400, label)
      assert.equal(res.body.errors[0].field, 'label', label)
    }
    const other = await createAccount(api)
    assert.equal((await create(other.headers, { ...base, label: 'taken' })).status, 200)
  })

  it('reports interface problems with the other problems, writing nothing', async () => {
    const owner = await createAccount(api)
    const vpc = await createVpc(api, owner, { subnets: [{ label: 'app', ipv4: '10.0.0.0/24' }] })
    const res = await create(owner.headers, {
      type: 'g6-huge',
      region: 'us-iad',
      interfaces: [{ purpose: 'vpc', subnet_id: vpc.subnets[0].id, ipv4: { vpc: '10.0.0.255' } }],
    })
    assert.deepEqual(res.body, {
      errors: [
        { reason: 'A valid plan type by that ID was not found', field: 'type' },
        {
          reason: 'Must not be one of the first two or the last two addresses of the subnet',
          field: 'interfaces[0].ipv4.vpc',
        },
      ],
    })
    const subnet = await api.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}/subnets/${vpc.subnets[0].id}`,
      headers: owner.headers,
    })
    assert.deepEqual(subnet.body.linodes, [])
  })

  it('refuses an update to a taken label; unknown instances are 404', async () => {
    const owner = await createAccount(api)
    await createInstance(api, owner, { label: 'first' })
    const second = await createInstance(api, owner, { label: 'second' })
    const res = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${second.id}`,
      headers: owner.headers,
      payload: { label: 'first', alerts: { transfer_quota: 101 } },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [{ field: 'alerts.transfer_quota', reason: 'transfer_quota must be at most 100' }],
    })
    const taken = await api.request({
      method: 'PUT',
      url: `/v4/compute/instances/${second.id}`,
      headers: owner.headers,
      payload: { label: 'first' },
    })
    assert.deepEqual(taken.body, {
      errors: [{ reason: 'Label must be unique among your Computes', field: 'label' }],
    })
    for (const method of ['GET', 'DELETE'] as const) {
      const missing = await api.request({
        method,
        url: '/v4/compute/instances/999999',
        headers: owner.headers,
      })
      assert.equal(missing.status, 404)
    }
  })

  it('a restricted user needs add_computes and a grant on a private image', async () => {
    const owner = await createAccount(api)
    const upload = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: { label: 'private', region: 'us-iad' },
    })
    const member = await createUser(api, owner)
    await grantGlobal(api, member, 'add_computes')
    const res = await create(member.headers, {
      type: 'g6-nanode-1',
      region: 'us-iad',
      image: upload.body.image.id,
      root_pass: ROOT_PASS,
    })
    assert.equal(res.status, 403)
  })
})
