import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { MAX_ERROR_ITEMS } from '../../src/common/validation.ts'
import { useTestApp } from '../helpers/app.ts'
import { createAccount, createUser, type TestUser } from '../helpers/factories.ts'

type JsonSchema = { [key: string]: unknown }

/** Every array schema under `schema`, with its JSON path in the document. */
function arraysIn(schema: unknown, path: string, found: { path: string; schema: JsonSchema }[] = []) {
  if (schema === null || typeof schema !== 'object') return found
  const s = schema as JsonSchema
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array')))
    found.push({ path, schema: s })
  for (const [key, value] of Object.entries(s)) {
    if (value !== null && typeof value === 'object') arraysIn(value, `${path}/${key}`, found)
  }
  return found
}

describe('validation cannot be made to amplify a request', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  it('a near-megabyte array of wrong items gets one small 400', async () => {
    const subnets = `[${Array.from({ length: 480_000 }, () => '1').join(',')}]`
    const payload = `{"label":"amplified","region":"us-east","subnets":${subnets}}`
    assert.ok(payload.length > 950_000)
    const res = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload,
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [{ field: 'subnets', reason: 'subnets must have at most 10 items' }],
    })
    assert.ok(res.raw.body.length < 200, `${res.raw.body.length} bytes`)
  })

  it('an oversized array nested in an item is caught too', async () => {
    const ranges = Array.from({ length: 50_000 }, () => 7)
    const res = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: {
        region: 'us-east',
        type: 'g6-nanode-1',
        interfaces: [{ purpose: 'vpc', ip_ranges: ranges }],
      },
    })
    assert.equal(res.status, 400)
    assert.deepEqual(res.body.errors, [
      { field: 'interfaces[0].ip_ranges', reason: 'ip_ranges must have at most 100 items' },
    ])
  })

  it(`reports at most ${MAX_ERROR_ITEMS} errors however many items are wrong`, async () => {
    const member = await createUser(api, owner)
    const wrong = Array.from({ length: 5_000 }, () => ({ id: 'x', permissions: 'everything' }))
    const res = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
      payload: { vpc: wrong },
    })
    assert.equal(res.status, 400)
    assert.equal(res.body.errors.length, MAX_ERROR_ITEMS)
    assert.ok(res.raw.body.length < 20_000, `${res.raw.body.length} bytes`)
  })

  it('every array a client may send has a bound', async () => {
    const document = api.app.swagger() as unknown as { paths: Record<string, Record<string, JsonSchema>> }
    const unbounded: string[] = []
    for (const [path, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const inputs = { requestBody: operation.requestBody, parameters: operation.parameters }
        for (const array of arraysIn(inputs, `${method.toUpperCase()} ${path}`)) {
          if (typeof array.schema.maxItems !== 'number') unbounded.push(array.path)
        }
      }
    }
    assert.ok(Object.keys(document.paths).length > 20)
    assert.deepEqual(unbounded, [])
  })
})
