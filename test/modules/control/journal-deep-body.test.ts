import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { useControlApp } from './control-app.ts'

/**
 * A JSON body nested deeper than the journal's thread can walk for secret fields (the API takes it:
 * the unknown field is dropped) is kept as its size, and the batch it is in is written with it.
 */
describe('a deeply nested JSON body with a secret-named key', () => {
  const api = useControlApp()

  it("does not cost the journal other requests' entries", async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(api as unknown as TestApp)
    await api.request({ method: 'GET', url: '/v4/regions/us-iad' })
    // 100 KB, far under the body limit; the unknown field `x` is dropped by validation and the
    // VPC is created, but the journal's redaction walks the whole value recursively.
    const depth = 50_000
    const payload = `{"label":"deep-body","region":"us-iad","token":"t","x":${'['.repeat(depth)}1${']'.repeat(depth)}}`
    const res = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload,
    })
    assert.ok(res.status < 500, JSON.stringify(res.body))
    await api.request({ method: 'GET', url: '/v4/regions/us-ord' })

    const journal = await api.admin('GET', '/journal?page_size=500')
    assert.equal(journal.status, 200)
    const paths = (journal.body.data as Array<{ path: string }>).map((e) => e.path)
    assert.deepEqual(
      { paths: [...paths].sort(), dropped: journal.body.dropped },
      { paths: ['/v4/regions/us-iad', '/v4/regions/us-ord', '/v4/vpcs'], dropped: 0 },
    )
  })
})
