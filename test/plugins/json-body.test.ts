import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../helpers/app.ts'
import { createAccount } from '../helpers/factories.ts'

describe('JSON bodies: lone UTF-16 surrogates', () => {
  const api = useTestApp()
  const post = async (headers: object, text: string) =>
    api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: { ...headers, 'content-type': 'application/json' },
      payload: text,
    })

  it('refuses a lone surrogate with a 400 naming the field, and stores nothing', async () => {
    const owner = await createAccount(api)
    const before = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: owner.headers })
    for (const label of ['x\\ud800y', 'x\\udc00', '\\ud83d']) {
      const res = await post(owner.headers, `{"label":"${label}"}`)
      assert.equal(res.status, 400, label)
      assert.deepEqual(res.body.errors, [
        { reason: 'Must be valid Unicode text (a lone UTF-16 surrogate is not)', field: 'label' },
      ])
    }
    const after = await api.request({ method: 'GET', url: '/v4/profile/tokens', headers: owner.headers })
    assert.equal(after.body.results, before.body.results)
  })

  it('names nested fields, and accepts a surrogate pair as the character it encodes', async () => {
    const owner = await createAccount(api)
    const nested = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload:
        '{"label":"v","region":"us-iad","subnets":[{"label":"ok","ipv4":"10.0.0.0/24"},{"label":"\\udfff"}]}',
    })
    assert.equal(nested.status, 400)
    assert.equal(nested.body.errors[0].field, 'subnets[1].label')
    const pair = await post(owner.headers, '{"label":"smile \\ud83d\\ude00"}')
    assert.equal(pair.status, 200, JSON.stringify(pair.body))
    assert.equal(pair.body.label, 'smile 😀')
  })
})
