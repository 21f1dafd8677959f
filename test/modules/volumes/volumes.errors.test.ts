import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'
import { testVocabulary } from '../../helpers/naming.ts'
import { activeVolume, createVolume } from './volume-fixtures.ts'

describe('volumes: refusals', () => {
  const api = useTestApp()
  const post = (owner: TestUser, url: string, payload: object = {}) =>
    api.request({ method: 'POST', url, headers: owner.headers, payload })
  const refused = async (res: { status: number; body: { errors: unknown[] } }, field: string | undefined) => {
    assert.equal(res.status, 400, JSON.stringify(res.body))
    const fields = res.body.errors.map((e) => (e as { field?: string }).field)
    assert.ok(fields.includes(field), `${JSON.stringify(res.body)} names ${field}`)
    return res.body.errors as Array<{ reason: string; field?: string }>
  }
  const reason = (text: string) => testVocabulary().reason(text)

  it('refuses sizes outside 10-16384 GB', async () => {
    const owner = await createAccount(api)
    for (const size of [9, 16385, 20.5]) {
      await refused(await post(owner, '/v4/volumes', { label: 'v', region: 'us-iad', size }), 'size')
    }
    const max = await post(owner, '/v4/volumes', { label: 'big', region: 'us-iad', size: 16384 })
    assert.equal(max.status, 200, JSON.stringify(max.body))
  })

  it('refuses labels the real service refuses', async () => {
    const owner = await createAccount(api)
    for (const label of ['', '1abc', 'has space', 'a--b', 'a__b', 'x'.repeat(33), 'dot.ted']) {
      await refused(await post(owner, '/v4/volumes', { label, region: 'us-iad' }), 'label')
    }
    await createVolume(api, owner, { label: 'taken' })
    const errors = await refused(
      await post(owner, '/v4/volumes', { label: 'taken', region: 'us-iad' }),
      'label',
    )
    assert.deepEqual(errors, [{ reason: 'Label must be unique among your Volumes', field: 'label' }])
  })

  it('needs a region with block storage, or an instance', async () => {
    const owner = await createAccount(api)
    const errors = await refused(await post(owner, '/v4/volumes', { label: 'v' }), 'region')
    assert.deepEqual(errors, [{ reason: reason('Must provide a region or a Compute ID'), field: 'region' }])
    await refused(await post(owner, '/v4/volumes', { label: 'v', region: 'nowhere-1' }), 'region')
    const instance = await createInstance(api, owner, { region: 'us-ord' })
    await refused(
      await post(owner, '/v4/volumes', { label: 'v', region: 'us-iad', linode_id: instance.id }),
      'region',
    )
    const other = await createAccount(api)
    const foreign = await createInstance(api, other)
    await refused(await post(owner, '/v4/volumes', { label: 'v', linode_id: foreign.id }), 'linode_id')
    await refused(
      await post(owner, '/v4/volumes', { label: 'v', region: 'us-iad', config_id: 1 }),
      'config_id',
    )
  })

  it('resizes only to a larger size', async () => {
    const owner = await createAccount(api)
    const volume = await activeVolume(api, owner, { size: 30 })
    for (const size of [30, 20]) {
      const errors = await refused(await post(owner, `/v4/volumes/${volume.id}/resize`, { size }), 'size')
      assert.deepEqual(errors, [
        { reason: "Size must be larger than the volume's current size of 30 GB", field: 'size' },
      ])
    }
    await refused(await post(owner, `/v4/volumes/${volume.id}/resize`, { size: 16385 }), 'size')
    await refused(await post(owner, `/v4/volumes/${volume.id}/resize`, {}), 'size')
  })

  it('attaches only a detached volume to an instance of its region', async () => {
    const owner = await createAccount(api)
    const volume = await activeVolume(api, owner)
    const elsewhere = await createInstance(api, owner, { region: 'us-ord' })
    await refused(
      await post(owner, `/v4/volumes/${volume.id}/attach`, { linode_id: elsewhere.id }),
      'linode_id',
    )
    await refused(await post(owner, `/v4/volumes/${volume.id}/attach`, { linode_id: 999999 }), 'linode_id')
    const here = await createInstance(api, owner)
    await refused(
      await post(owner, `/v4/volumes/${volume.id}/attach`, { linode_id: here.id, config_id: 999999 }),
      'config_id',
    )
    const ok = await post(owner, `/v4/volumes/${volume.id}/attach`, { linode_id: here.id })
    assert.equal(ok.status, 200, JSON.stringify(ok.body))
    await refused(await post(owner, `/v4/volumes/${volume.id}/attach`, { linode_id: here.id }), 'linode_id')
  })

  it('deletes only a detached volume, and detaches only an attached one', async () => {
    const owner = await createAccount(api)
    const instance = await createInstance(api, owner)
    const volume = await createVolume(api, owner, { linode_id: instance.id })
    const url = `/v4/volumes/${volume.id}`
    const refusedDelete = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(refusedDelete.status, 400)
    assert.deepEqual(refusedDelete.body, {
      errors: [{ reason: 'Volume must be detached before it can be deleted' }],
    })
    assert.equal((await post(owner, `${url}/detach`)).status, 200)
    const again = await post(owner, `${url}/detach`)
    assert.equal(again.status, 400)
    assert.equal((await api.request({ method: 'DELETE', url, headers: owner.headers })).status, 200)
  })

  it('refuses a resize while the volume is still being created', async () => {
    const owner = await createAccount(api)
    const volume = await createVolume(api, owner)
    const res = await post(owner, `/v4/volumes/${volume.id}/resize`, { size: 40 })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Volume is creating; try again when it is active' }] })
  })
})
