import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'

interface Operation {
  requestBody?: unknown
  responses?: Record<string, unknown>
}
type Paths = Record<string, Record<string, Operation>>

/**
 * Every failure the server answers is one its OpenAPI document lists for the operation, so a client
 * generated from the document knows the envelope: besides 400, 401, 403 and 404, a 429 over a rate
 * limit anywhere, and 413 and 415 wherever a body is taken.
 */
describe('OpenAPI: the failures each operation can answer are documented', () => {
  const api = useTestApp()
  let paths: Paths
  let owner: TestUser
  const documented = (method: string, path: string) =>
    Object.keys(paths[path]?.[method.toLowerCase()]?.responses ?? {})
  before(async () => {
    paths = (await api.request({ method: 'GET', url: '/v4/openapi.json' })).body.paths
    owner = await createAccount(api)
  })

  it('a body of another media type: 415, on every operation that takes a body', async () => {
    const undocumented: string[] = []
    let operations = 0
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (operation.requestBody === undefined) continue
        operations++
        const res = await api.request({
          method: method.toUpperCase() as 'POST',
          url: `/v4${path.replace(/\{\w+\}/g, '1')}`,
          headers: { ...owner.headers, 'content-type': 'text/plain' },
          payload: 'hello',
        })
        assert.equal(res.status, 415, `${method} ${path}: ${JSON.stringify(res.body)}`)
        if (!documented(method, path).includes('415')) undocumented.push(`${method} ${path}`)
      }
    }
    assert.ok(operations > 40, `${operations} operations take a body`)
    assert.deepEqual(undocumented, [])
  })

  it('a body over the limit: 413', async () => {
    const res = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner.headers,
      payload: { label: 'vpc', region: 'us-iad', description: 'x'.repeat(2_000_000) },
    })
    assert.deepEqual(res.body, { errors: [{ reason: 'Request body is too large' }] })
    assert.ok(documented('post', '/vpcs').includes(String(res.status)), documented('post', '/vpcs').join())
  })

  it('a rate limit: 429, on every operation', async () => {
    const send = () =>
      api.request({
        method: 'POST',
        url: '/v4/profile/phone-number',
        headers: owner.headers,
        payload: { iso_code: 'US', phone_number: '+12025550123' },
      })
    assert.equal((await send()).status, 200)
    const again = await send()
    assert.equal(again.status, 429)
    assert.ok(documented('post', '/profile/phone-number').includes('429'))
    const without = Object.entries(paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((method) => !documented(method, path).includes('429'))
        .map((method) => `${method} ${path}`),
    )
    assert.deepEqual(without, [])
  })
})
