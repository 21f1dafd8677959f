import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from '../../helpers/app.ts'
import {
  bearer,
  createAccount,
  createToken,
  createUser,
  grantEntity,
  grantGlobal,
} from '../../helpers/factories.ts'
import { createImage } from './image-helpers.ts'

const NOT_FOUND = { errors: [{ reason: 'Not found' }] }
const UNAUTHORIZED = { errors: [{ reason: 'Unauthorized' }] }

describe('images: refusals', () => {
  const api = useTestApp()

  it('404s ids that name no image, and another account’s private image', async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const theirs = await createImage(api, stranger)
    for (const url of [
      '/v4/images/compute/no-such-image',
      '/v4/images/compute%2Fno-such-image',
      '/v4/images/debian12',
      '/v4/images/private/abc',
      '/v4/images/private%2F0',
      '/v4/images/private/99999999999',
      '/v4/images/public%2Fdebian12',
      `/v4/images/${theirs.id}`,
      `/v4/images/${encodeURIComponent(theirs.id)}`,
    ]) {
      const res = await api.request({ method: 'GET', url, headers: owner.headers })
      assert.equal(res.status, 404, url)
      assert.deepEqual(res.body, NOT_FOUND)
    }
  })

  it('a private image needs a token that may read images', async () => {
    const owner = await createAccount(api)
    const image = await createImage(api, owner)
    const anonymous = await api.request({ method: 'GET', url: `/v4/images/${image.id}` })
    assert.equal(anonymous.status, 401)
    assert.deepEqual(anonymous.body, { errors: [{ reason: 'Invalid Token' }] })
    const token = await createToken(api, owner.user.id, { scopes: 'vpc:read_write' })
    const scoped = await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: bearer(token) })
    assert.equal(scoped.status, 401)
    assert.deepEqual(scoped.body, {
      errors: [{ reason: 'Your OAuth token is not authorized to use this endpoint.' }],
    })
    const publicView = await api.request({
      method: 'GET',
      url: '/v4/images/compute/debian12',
      headers: bearer(token),
    })
    assert.equal(publicView.status, 200, 'public images need no scope')
  })

  it('public images cannot be changed or deleted: 403', async () => {
    const owner = await createAccount(api)
    for (const url of ['/v4/images/compute/debian12', '/v4/images/compute%2Fdebian12']) {
      const put = await api.request({
        method: 'PUT',
        url,
        headers: owner.headers,
        payload: { label: 'mine now' },
      })
      assert.equal(put.status, 403, url)
      assert.deepEqual(put.body, UNAUTHORIZED)
      const del = await api.request({ method: 'DELETE', url, headers: owner.headers })
      assert.equal(del.status, 403, url)
    }
    const missing = await api.request({
      method: 'DELETE',
      url: '/v4/images/compute/not-a-distro',
      headers: owner.headers,
    })
    assert.equal(missing.status, 404)
    const still = await api.request({ method: 'GET', url: '/v4/images/compute/debian12' })
    assert.equal(still.body.label, 'Debian 12')
  })

  it('validates updates: label 1-50 characters, description 1-65000 or null, types', async () => {
    const owner = await createAccount(api)
    const image = await createImage(api, owner, 'valid')
    const put = (payload: unknown) =>
      api.request({
        method: 'PUT',
        url: `/v4/images/${image.id}`,
        headers: owner.headers,
        payload: payload as object,
      })
    const long = await put({ label: 'x'.repeat(51) })
    assert.equal(long.status, 400)
    assert.deepEqual(long.body, { errors: [{ field: 'label', reason: 'label must be 1-50 characters' }] })
    const empty = await put({ label: '' })
    assert.deepEqual(
      empty.body.errors.map((e: { field: string }) => e.field),
      ['label'],
    )
    const both = await put({ label: 7, description: '' })
    assert.equal(both.status, 400)
    assert.deepEqual(both.body.errors.map((e: { field: string }) => e.field).sort(), ['description', 'label'])
    const huge = await put({ description: 'd'.repeat(65001) })
    assert.deepEqual(
      huge.body.errors.map((e: { field: string }) => e.field),
      ['description'],
    )
    const fine = await put({ label: 'x'.repeat(50), description: 'd'.repeat(65000) })
    assert.equal(fine.status, 200)
    const notObject = await api.request({
      method: 'PUT',
      url: `/v4/images/${image.id}`,
      headers: { ...owner.headers, 'content-type': 'application/json' },
      payload: '[1]',
    })
    assert.equal(notObject.status, 400)
  })

  it('refuses filters on unfilterable fields and ordering by status', async () => {
    const list = (filter: string) =>
      api.request({ method: 'GET', url: '/v4/images', headers: { 'x-filter': filter } })
    for (const [filter, reason] of [
      ['{"id":"compute/debian12"}', 'Cannot filter on id'],
      ['{"created":"2024-01-01T00:00:00"}', 'Cannot filter on created'],
      ['{"capabilities":"cloud-init"}', 'Cannot filter on capabilities'],
      ['{"+order_by":"status"}', 'Cannot order by status'],
      ['{"size":"big"}', 'size must be an integer'],
      ['not json', 'X-Filter must be valid JSON'],
    ] as const) {
      const res = await list(filter)
      assert.equal(res.status, 400, filter)
      assert.deepEqual(res.body, { errors: [{ reason, field: 'X-Filter' }] })
    }
    const byStatus = await list('{"status":"available"}')
    assert.equal(byStatus.status, 200, 'status filters, it only cannot order')
  })

  it('restricted users: reading needs a grant, changing needs read_write', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const image = await createImage(api, owner)
    const none = await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: member.headers })
    assert.equal(none.status, 403)
    assert.deepEqual(none.body, UNAUTHORIZED)
    await grantEntity(api, member, 'image', image.numericId, 'read_only')
    assert.equal(
      (await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: member.headers })).status,
      200,
    )
    for (const method of ['PUT', 'DELETE'] as const) {
      const res = await api.request({
        method,
        url: `/v4/images/${image.id}`,
        headers: member.headers,
        ...(method === 'PUT' && { payload: { label: 'x' } }),
      })
      assert.equal(res.status, 403, method)
    }
    await grantEntity(api, member, 'image', image.numericId, 'read_write')
    const put = await api.request({
      method: 'PUT',
      url: `/v4/images/${image.id}`,
      headers: member.headers,
      payload: { label: 'by member' },
    })
    assert.equal(put.status, 200)
    const del = await api.request({
      method: 'DELETE',
      url: `/v4/images/${image.id}`,
      headers: member.headers,
    })
    assert.equal(del.status, 200)
  })

  it('creating an upload needs add_images for a restricted user, and a valid body', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const body = { label: 'up', region: 'us-east' }
    const refused = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: member.headers,
      payload: body,
    })
    assert.equal(refused.status, 403)
    await grantGlobal(api, member, 'add_images')
    const allowed = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: member.headers,
      payload: body,
    })
    assert.equal(allowed.status, 200)

    const missing = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: {},
    })
    assert.equal(missing.status, 400)
    assert.deepEqual(missing.body.errors.map((e: { field: string }) => e.field).sort(), ['label', 'region'])
    const region = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: { label: 'up', region: 'mars-1' },
    })
    assert.equal(region.status, 400)
    assert.deepEqual(region.body, { errors: [{ reason: 'Region not found', field: 'region' }] })
    const types = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: owner.headers,
      payload: { label: 'x'.repeat(51), region: 'us-east', cloud_init: 'yes', description: '' },
    })
    assert.deepEqual(types.body.errors.map((e: { field: string }) => e.field).sort(), [
      'cloud_init',
      'description',
      'label',
    ])
  })
})
