import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import { adminHeaders, BOOTSTRAP_TOKEN, bootstrapHeaders, useControlApp } from './control-app.ts'

describe('the control API: its own credential', () => {
  const api = useControlApp()

  it('refuses a request without the admin key, with a wrong one, and with an API token', async () => {
    for (const headers of [
      {},
      { 'x-cloudplane-admin-key': 'not-the-key-at-all-0000' },
      { 'x-cloudplane-admin-key': BOOTSTRAP_TOKEN },
      bootstrapHeaders,
    ]) {
      const res = await api.request({ method: 'GET', url: '/_cloudplane/clock', headers })
      assert.equal(res.status, 401, JSON.stringify(headers))
      assert.match(res.body.errors[0].reason, /admin key/)
    }
  })

  it('answers with the admin key', async () => {
    const res = await api.request({ method: 'GET', url: '/_cloudplane/clock', headers: adminHeaders })
    assert.equal(res.status, 200)
    assert.equal(typeof res.body.virtual, 'string')
  })

  it('is documented in its own group, at the server root, with its own security scheme', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/openapi.json' })
    const doc = res.body
    assert.ok(doc.tags.some((t: { name: string }) => t.name === 'Emulator control'))
    const clock = doc.paths['/_cloudplane/clock']
    assert.ok(clock, 'the clock route is in the document')
    assert.deepEqual(clock.servers, [{ url: '/' }])
    assert.deepEqual(clock.get.tags, ['Emulator control'])
    assert.deepEqual(clock.get.security, [{ adminKey: [] }])
    assert.equal(doc.components.securitySchemes.adminKey.name, 'X-Cloudplane-Admin-Key')
  })
})

describe('the control API switched off', () => {
  const api = useTestApp()

  it('does not exist: 404, and is not in the document', async () => {
    const res = await api.request({ method: 'GET', url: '/_cloudplane/clock', headers: adminHeaders })
    assert.equal(res.status, 404)
    const doc = (await api.request({ method: 'GET', url: '/v4/openapi.json' })).body
    assert.equal(doc.paths['/_cloudplane/clock'], undefined)
    assert.ok(!doc.tags.some((t: { name: string }) => t.name === 'Emulator control'))
  })
})
