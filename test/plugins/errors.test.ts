import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { nowTimestamp } from '../../src/common/time.ts'
import { recordEvents } from '../../src/modules/events/events.repository.ts'
import { buildTestApp, useTestApp } from '../helpers/app.ts'
import { createAccount, type TestUser } from '../helpers/factories.ts'

describe('the error envelope for every kind of bad request', () => {
  const api = useTestApp()
  let owner: TestUser
  before(async () => {
    owner = await createAccount(api)
  })

  const post = (payload: string, contentType = 'application/json') =>
    api.request({
      method: 'POST',
      url: '/v4/account/users',
      headers: { ...owner.headers, 'content-type': contentType },
      payload,
    })

  it('unknown routes are 404 Not found', async () => {
    for (const url of ['/v4/nothing', '/v4/vpcz/1', '/nothing', '/v5/regions']) {
      const res = await api.request({ method: 'GET', url })
      assert.equal(res.status, 404, url)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
      assert.match(String(res.headers['content-type']), /application\/json/)
    }
  })

  it('a known path with the wrong method is 405 with Allow', async () => {
    const res = await api.request({ method: 'DELETE', url: '/v4/regions', headers: owner.headers })
    assert.equal(res.status, 405)
    assert.deepEqual(res.body, { errors: [{ reason: 'Method not allowed' }] })
    assert.equal(res.headers.allow, 'GET, HEAD, OPTIONS')
    const put = await api.request({
      method: 'PATCH',
      url: '/v4/account/users/someone',
      headers: owner.headers,
    })
    assert.equal(put.status, 405)
    assert.equal(put.headers.allow, 'GET, PUT, DELETE, HEAD, OPTIONS')
  })

  it('malformed JSON is 400', async () => {
    const res = await post('{"username": "x",')
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, { errors: [{ reason: 'Request body is not valid JSON' }] })
  })

  it('a body that is not a JSON object is 400', async () => {
    for (const payload of ['[]', '"text"', '42', 'null']) {
      const res = await post(payload)
      assert.equal(res.status, 400, payload)
      assert.deepEqual(res.body, { errors: [{ reason: 'Request body must be a JSON object' }] }, payload)
    }
    const empty = await post('')
    assert.deepEqual(empty.body, { errors: [{ reason: 'Request body must be a JSON object' }] })
  })

  it('a body that is not JSON is 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'application/xml']) {
      const res = await post('username=x', type)
      assert.equal(res.status, 415, type)
      assert.deepEqual(res.body, { errors: [{ reason: 'Content-Type must be application/json' }] })
    }
  })

  it('an oversized body is 413', async () => {
    const res = await post(JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }))
    assert.equal(res.status, 413)
    assert.deepEqual(res.body, { errors: [{ reason: 'Request body is too large' }] })
  })

  it('a NUL character in a JSON string is 400, never a database error', async () => {
    const res = await post('{"username":"ab\\u0000c","email":"a@example.com","restricted":true}')
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [{ reason: 'Strings must not contain NUL characters', field: 'username' }],
    })
    // Named by its path wherever it is; an escaped backslash before `u0000` is no NUL.
    const nested = await post('{"username":"ok","email":"a\\\\u0000@x","tags":["a","\\u0000"]}')
    assert.deepEqual(nested.body, {
      errors: [{ reason: 'Strings must not contain NUL characters', field: 'tags[1]' }],
    })
  })

  it('reports every validation failure at once, with field paths', async () => {
    const res = await post(JSON.stringify({ username: 12345, restricted: 'true' }))
    assert.equal(res.status, 400)
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort()
    assert.deepEqual(fields, ['email', 'restricted', 'username'])
    const byField = Object.fromEntries(
      res.body.errors.map((e: { field: string; reason: string }) => [e.field, e.reason]),
    )
    assert.equal(byField.username, 'username must be a string')
    assert.equal(byField.restricted, 'restricted must be a boolean (true or false)')
    assert.equal(byField.email, 'email is required')
  })

  it('does not coerce types: a number for a string and "true" for a boolean are 400', async () => {
    const res = await post(
      JSON.stringify({ username: 'valid-name', email: 'a@example.com', restricted: 'true' }),
    )
    assert.equal(res.status, 400)
    assert.deepEqual(res.body, {
      errors: [{ field: 'restricted', reason: 'restricted must be a boolean (true or false)' }],
    })
  })

  it('nested fields are reported as dot and index paths', async () => {
    const res = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${owner.user.username}/grants`,
      headers: owner.headers,
      payload: { global: { add_vpcs: 'yes' }, vpc: [{ id: 1, permissions: 'admin' }] },
    })
    assert.equal(res.status, 400)
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort()
    assert.deepEqual(fields, ['global.add_vpcs', 'vpc[0].permissions'])
  })

  it('a malformed URL and a NUL in the path are refused in the envelope', async () => {
    const bad = await api.request({ method: 'GET', url: '/v4/vpcs/%ZZ', headers: owner.headers })
    assert.equal(bad.status, 400)
    assert.deepEqual(bad.body, { errors: [{ reason: 'Malformed request URL' }] })
    for (const url of ['/v4/regions/%00', '/v4/regions/us-iad%00/availability', '/v4/account/users/a%00b']) {
      const res = await api.request({ method: 'GET', url, headers: owner.headers })
      assert.equal(res.status, 404, url)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
    }
  })

  it('oversized headers get 431 in the envelope, from the HTTP parser itself', async () => {
    const server = await buildTestApp()
    try {
      const address = await server.app.listen({ port: 0, host: '127.0.0.1' })
      const res = await fetch(`${address}/v4/regions`, { headers: { 'x-filter': 'x'.repeat(20_000) } })
      assert.equal(res.status, 431)
      assert.deepEqual(await res.json(), { errors: [{ reason: 'Request headers are too large' }] })
    } finally {
      await server.close()
    }
  })

  it('a bodiless POST is accepted whatever Content-Type the client library defaults to', async () => {
    const [id] = await recordEvents(api.db, [
      {
        accountId: owner.accountId,
        user: null,
        action: 'vpc_create',
        entity: { type: 'vpc', id: 1, label: 'v', url: '/v4/vpcs/1' },
        grant: null,
        created: nowTimestamp(api.clock),
      },
    ])
    for (const type of ['application/x-www-form-urlencoded', 'text/plain', 'application/json']) {
      const res = await api.request({
        method: 'POST',
        url: `/v4/account/events/${id}/seen`,
        headers: { ...owner.headers, 'content-type': type },
      })
      assert.equal(res.status, 200, type)
    }
  })

  it('path ids must be canonical integers', async () => {
    for (const id of ['+5', '5.0', '05', 'abc', '-1', '0', '1e3', '99999999999999999999']) {
      const res = await api.request({
        method: 'GET',
        url: `/v4/account/events/${id}`,
        headers: owner.headers,
      })
      assert.equal(res.status, 404, id)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] })
    }
  })

  it('a query-string credential is ignored: only the Authorization header counts', async () => {
    for (const url of [`/v4/profile?token=${owner.token}`, `/v4/profile?access_token=${owner.token}`]) {
      const res = await api.request({ method: 'GET', url })
      assert.equal(res.status, 401)
      assert.deepEqual(res.body, { errors: [{ reason: 'Invalid Token' }] })
    }
  })

  it('an unexpected failure is a 500 with a generic reason and the request id', async () => {
    const broken = await buildTestApp()
    try {
      const victim = await createAccount(broken)
      // Close the database under the app: the route's query then fails unexpectedly. (Dropping a
      // table would race with other test processes introspecting the catalogue on PostgreSQL.)
      await broken.db.destroy()
      const res = await broken.request({
        method: 'GET',
        url: '/v4/regions/availability',
        headers: victim.headers,
      })
      assert.equal(res.status, 500)
      assert.equal(res.body.errors.length, 1)
      assert.match(res.body.errors[0].reason, /^Internal server error \(request [0-9a-f-]{36}\)$/)
      assert.ok(res.body.errors[0].reason.includes(String(res.headers['x-request-id'])))
      assert.doesNotMatch(JSON.stringify(res.body), /destroyed|driver|SQL/i)
    } finally {
      await broken.close()
    }
  })
})
