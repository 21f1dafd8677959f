import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { createInstance, firstConfig } from '../helpers/api-fixtures.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'
import { apiErrors, clientFunction, connectClient } from './client.ts'

const call = clientFunction

/** The official client `@linode/api-v4` against cloudplane: volumes, domains and their records. */
describe('compatibility: @linode/api-v4 (volumes, domains)', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
    await connectClient(api, owner.token)
  })

  it('creates, attaches, grows, detaches and deletes a volume', async () => {
    const volume = await call('createVolume')({ label: 'compat-vol', region: 'us-iad', size: 20 })
    assert.equal(volume.status, 'creating')
    await api.app.jobs.runPendingJobs()
    assert.equal((await call('getVolume')(volume.id)).status, 'active')
    const page = await call('getVolumes')({ page_size: 25 }, { label: 'compat-vol' })
    assert.equal(page.results, 1)
    assert.deepEqual((await call('updateVolume')(volume.id, { tags: ['compat'] })).tags, ['compat'])

    const instance = await createInstance(api, owner)
    const config = await firstConfig(api, owner, instance.id)
    const attached = await call('attachVolume')(volume.id, { linode_id: instance.id, config_id: config.id })
    assert.equal(attached.linode_id, instance.id)
    const smaller = await apiErrors(call('resizeVolume')(volume.id, { size: 20 }))
    assert.deepEqual(smaller, [
      { reason: "Size must be larger than the volume's current size of 20 GB", field: 'size' },
    ])
    assert.equal((await call('resizeVolume')(volume.id, { size: 30 })).status, 'resizing')
    await api.app.jobs.runPendingJobs()
    await call('detachVolume')(volume.id)
    await call('deleteVolume')(volume.id)
    assert.deepEqual(await apiErrors(call('getVolume')(volume.id)), [{ reason: 'Not found' }])
  })

  it('manages a domain and its records', async () => {
    const domain = await call('createDomain')({
      domain: 'compat.example',
      type: 'master',
      soa_email: 'a@compat.example',
    })
    assert.equal(domain.domain, 'compat.example')
    assert.equal((await call('getDomains')({}, { domain: 'compat.example' })).results, 1)
    assert.equal(
      (await call('updateDomain')(domain.id, { description: 'from the client' })).description,
      'from the client',
    )
    const record = await call('createDomainRecord')(domain.id, {
      type: 'A',
      name: 'www',
      target: '192.0.2.4',
    })
    assert.equal((await call('getDomainRecord')(domain.id, record.id)).target, '192.0.2.4')
    assert.equal((await call('getDomainRecords')(domain.id)).results, 1)
    assert.equal((await call('updateDomainRecord')(domain.id, record.id, { ttl_sec: 3000 })).ttl_sec, 3600)
    const wrong = await apiErrors(
      call('createDomainRecord')(domain.id, { type: 'AAAA', name: 'v6', target: '192.0.2.1' }),
    )
    assert.deepEqual(wrong, [{ reason: 'Target must be a valid IPv6 address', field: 'target' }])
    await call('deleteDomainRecord')(domain.id, record.id)
    await call('deleteDomain')(domain.id)
    assert.deepEqual(await apiErrors(call('getDomain')(domain.id)), [{ reason: 'Not found' }])
  })
})
