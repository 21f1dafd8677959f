import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { MemoryBlobStore } from '../../../src/blobs/memory-blob-store.ts'
import { findJobs } from '../../../src/jobs/jobs.repository.ts'
import { useTestApp } from '../../helpers/app.ts'
import {
  bearer,
  createAccount,
  createToken,
  createUser,
  grantEntity,
  grantGlobal,
} from '../../helpers/factories.ts'
import { PRIVATE_IMAGE_KEYS, PUBLIC_IMAGE_KEYS } from '../../helpers/wire-keys.ts'
import { createImage } from './image-helpers.ts'

describe('images', () => {
  const api = useTestApp()
  let publicCount: number
  before(async () => {
    publicCount = (await api.request({ method: 'GET', url: '/v4/images?page_size=500' })).body.results
  })

  it('lists the public catalogue without a token, deprecated images last', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/images?page_size=500' })
    assert.equal(res.status, 200)
    assert.equal(res.headers['x-accepted-oauth-scopes'], '*')
    assert.ok(res.body.results >= 38)
    assert.equal(res.body.data.length, res.body.results)
    assert.ok(res.body.data.every((i: { is_public: boolean }) => i.is_public))
    const deprecated = res.body.data.map((i: { deprecated: boolean }) => i.deprecated)
    assert.equal(deprecated.indexOf(true) > 0, true)
    assert.ok(deprecated.slice(deprecated.indexOf(true)).every(Boolean), 'deprecated images come last')
    const debian11 = res.body.data.find((i: { id: string }) => i.id === 'compute/debian11')
    assert.deepEqual(Object.keys(res.body), ['pages', 'data', 'results', 'page'])
    assert.deepEqual(Object.keys(debian11), PUBLIC_IMAGE_KEYS)
    assert.equal(debian11.label, 'Debian 11')
    assert.equal(debian11.vendor, 'Debian')
    assert.equal(debian11.created_by, 'compute')
    assert.equal(debian11.type, 'manual')
    assert.equal(debian11.status, 'available')
    assert.equal(debian11.expiry, null)
    assert.match(debian11.eol, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
    assert.deepEqual(debian11.capabilities, ['cloud-init'])
  })

  it("lists the account's private images first, then the public ones; never another account's", async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const first = await createImage(api, owner, 'first')
    const second = await createImage(api, owner, 'second')
    await createImage(api, stranger, 'not-mine')
    const res = await api.request({ method: 'GET', url: '/v4/images?page_size=500', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, publicCount + 2)
    assert.deepEqual(
      res.body.data.slice(0, 3).map((i: { id: string }) => i.id),
      [first.id, second.id, 'compute/almalinux8'],
    )
    const mine = res.body.data[0]
    assert.deepEqual(Object.keys(mine), PRIVATE_IMAGE_KEYS)
    assert.equal(mine.is_public, false)
    assert.equal(mine.vendor, null)
    assert.equal(mine.eol, null)
    assert.equal(mine.created_by, owner.user.username)
  })

  it('renders each listed image byte for byte as it is served on its own', async () => {
    const owner = await createAccount(api)
    const label = 'a "quoted" \\ label\t\u0001\u001f é ✓ 😀 </script>'
    const tricky = await createImage(api, owner, label, {
      cloudInit: true,
      description: 'line one\nline two\r\b\f\u007f\u2028 "end"',
    })
    const plain = await createImage(api, owner, 'plain')
    const res = await api.request({ method: 'GET', url: '/v4/images?page_size=500', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.match(res.raw.body, /^\{"pages":1,"data":\[\{/)
    for (const id of [tricky.id, plain.id, 'compute/debian11', 'compute/almalinux8']) {
      const one = await api.request({
        method: 'GET',
        url: `/v4/images/${encodeURIComponent(id)}`,
        headers: owner.headers,
      })
      assert.equal(one.status, 200)
      assert.ok(res.raw.body.includes(one.raw.body), `${id} in the list as on its own: ${one.raw.body}`)
    }
    assert.equal(res.body.data[0].label, label)
    assert.ok(res.raw.body.endsWith(`],"results":${res.body.results},"page":1}`))
  })

  it('lists only public images for a token that may not read images', async () => {
    const owner = await createAccount(api)
    await createImage(api, owner)
    const token = await createToken(api, owner.user.id, { scopes: 'account:read_only' })
    const res = await api.request({ method: 'GET', url: '/v4/images?page_size=500', headers: bearer(token) })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, publicCount)
    const readOnly = await createToken(api, owner.user.id, { scopes: 'images:read_only' })
    const withScope = await api.request({
      method: 'GET',
      url: '/v4/images?page_size=500',
      headers: bearer(readOnly),
    })
    assert.equal(withScope.body.results, publicCount + 1)
  })

  it('shows a restricted user only the private images granted to them', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createImage(api, owner, 'granted')
    await createImage(api, owner, 'hidden')
    await grantEntity(api, member, 'image', granted.numericId, 'read_only')
    const res = await api.request({ method: 'GET', url: '/v4/images?page_size=500', headers: member.headers })
    assert.equal(res.body.results, publicCount + 1)
    assert.equal(res.body.data[0].id, granted.id)
  })

  it('filters on label, deprecated, is_public, size, type, vendor and status, and orders', async () => {
    const owner = await createAccount(api)
    await createImage(api, owner, 'filter-me')
    const list = async (filter: unknown) => {
      const res = await api.request({
        method: 'GET',
        url: '/v4/images?page_size=500',
        headers: { ...owner.headers, 'x-filter': JSON.stringify(filter) },
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      return res.body.data as Array<Record<string, unknown>>
    }
    assert.deepEqual(
      (await list({ is_public: false })).map((i) => i.label),
      ['filter-me'],
    )
    assert.ok((await list({ vendor: 'Debian' })).every((i) => i.vendor === 'Debian'))
    assert.ok((await list({ deprecated: true })).every((i) => i.deprecated === true))
    assert.ok((await list({ label: { '+contains': 'Ubuntu' } })).length >= 4)
    assert.ok((await list({ size: { '+gte': 6000 } })).every((i) => (i.size as number) >= 6000))
    assert.equal((await list({ type: 'automatic' })).length, 0)
    assert.deepEqual(
      (await list({ status: 'available', is_public: false })).map((i) => i.label),
      ['filter-me'],
    )
    assert.deepEqual(
      (await list({ vendor: null })).map((i) => i.label),
      ['filter-me'],
    )
    const bySize = await list({ is_public: true, '+order_by': 'size', '+order': 'desc' })
    const sizes = bySize.map((i) => i.size as number)
    assert.deepEqual(
      sizes,
      [...sizes].sort((a, b) => b - a),
    )
    const byLabel = await list({ '+or': [{ vendor: 'Alpine' }, { vendor: 'Arch' }], '+order_by': 'label' })
    const labels = byLabel.map((i) => i.label as string)
    assert.deepEqual(labels, [...labels].sort())
  })

  it('pages from the private images into the public ones, each run in its order', async () => {
    const owner = await createAccount(api)
    const mine: string[] = []
    for (let i = 0; i < 30; i++) mine.push((await createImage(api, owner, `paged-${i}`)).id)
    const ids = async (query: string, filter?: unknown) => {
      const res = await api.request({
        method: 'GET',
        url: `/v4/images?${query}`,
        headers: { ...owner.headers, ...(filter !== undefined && { 'x-filter': JSON.stringify(filter) }) },
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      return (res.body.data as Array<{ id: string }>).map((i) => i.id)
    }
    const all = await ids('page_size=500')
    assert.deepEqual(all.slice(0, 30), mine)
    const pages: string[] = []
    for (let page = 1; page <= Math.ceil(all.length / 25); page++)
      pages.push(...(await ids(`page=${page}&page_size=25`)))
    assert.deepEqual(pages, all)
    const filtered = await ids('page=2&page_size=25', { label: { '+contains': 'e' } })
    const expected = (await ids('page_size=500', { label: { '+contains': 'e' } })).slice(25, 50)
    assert.deepEqual(filtered, expected)
    assert.deepEqual(expected.slice(0, 5), mine.slice(25))
  })

  it('pages the list', async () => {
    const page = await api.request({ method: 'GET', url: '/v4/images?page=2&page_size=25' })
    assert.equal(page.status, 200)
    assert.equal(page.body.page, 2)
    assert.equal(page.body.pages, Math.ceil(publicCount / 25))
    assert.equal(page.body.data.length, Math.min(25, publicCount - 25))
  })

  it('views an image by its id raw or URL-encoded, under /v4 and /v4beta', async () => {
    const owner = await createAccount(api)
    const image = await createImage(api, owner)
    for (const url of [
      '/v4/images/compute/debian12',
      '/v4/images/compute%2Fdebian12',
      '/v4beta/images/compute%2fdebian12',
    ]) {
      const res = await api.request({ method: 'GET', url })
      assert.equal(res.status, 200, url)
      assert.equal(res.body.id, 'compute/debian12')
    }
    for (const url of [
      `/v4/images/${image.id}`,
      `/v4/images/${encodeURIComponent(image.id)}`,
      `/v4beta/images/${image.id}`,
    ]) {
      const res = await api.request({ method: 'GET', url, headers: owner.headers })
      assert.equal(res.status, 200, url)
      assert.equal(res.body.id, image.id)
      assert.equal(res.headers['x-accepted-oauth-scopes'], 'images:read_only')
    }
  })

  it('updates the label and description of a private image, with an image_update event', async () => {
    const owner = await createAccount(api)
    const image = await createImage(api, owner, 'before', { description: 'old words' })
    api.clock.advance(60_000)
    const res = await api.request({
      method: 'PUT',
      url: `/v4/images/${encodeURIComponent(image.id)}`,
      headers: owner.headers,
      payload: { label: 'after', description: 'new words', size: 1, is_public: true, status: 'creating' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.label, 'after')
    assert.equal(res.body.description, 'new words')
    assert.equal(res.body.is_public, false, 'read-only fields are ignored')
    assert.equal(res.body.status, 'available')
    assert.notEqual(res.body.updated, res.body.created)
    const cleared = await api.request({
      method: 'PUT',
      url: `/v4/images/${image.id}`,
      headers: owner.headers,
      payload: { description: null },
    })
    assert.equal(cleared.body.description, null)
    assert.equal(cleared.body.label, 'after')
    const viewed = await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: owner.headers })
    assert.deepEqual(viewed.body, cleared.body)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': '{"action":"image_update"}' },
    })
    assert.equal(events.body.results, 2)
    assert.deepEqual(events.body.data[0].entity, {
      label: 'after',
      id: image.id,
      type: 'image',
      url: `/v4/images/${image.id}`,
    })
    assert.equal(events.body.data[0].username, owner.user.username)
  })

  it('deletes a private image with its stored data and an image_delete event', async () => {
    const owner = await createAccount(api)
    const image = await createImage(api, owner, 'doomed')
    const key = `images/${image.numericId}.img.gz`
    assert.ok(await api.app.blobs.head(key), 'the upload stored data')
    const res = await api.request({ method: 'DELETE', url: `/v4/images/${image.id}`, headers: owner.headers })
    assert.equal(res.status, 200)
    assert.deepEqual(res.body, {})
    assert.equal(await api.app.blobs.head(key), undefined, 'the stored data is gone')
    const gone = await api.request({ method: 'GET', url: `/v4/images/${image.id}`, headers: owner.headers })
    assert.equal(gone.status, 404)
    const again = await api.request({
      method: 'DELETE',
      url: `/v4/images/${image.id}`,
      headers: owner.headers,
    })
    assert.equal(again.status, 404)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ action: 'image_delete', 'entity.id': image.id }),
      },
    })
    assert.equal(events.body.results, 1)
    assert.equal(events.body.data[0].entity.label, 'doomed')
    // The same removal is queued, so it happens even if the process stops after the commit.
    const queued = (await findJobs(api.db, 'blob-delete')).filter((j) => JSON.parse(j.payload).key === key)
    assert.equal(queued.length, 1)
    await api.app.jobs.runPendingJobs()
    assert.deepEqual(
      (await findJobs(api.db, 'blob-delete')).filter((j) => JSON.parse(j.payload).key === key),
      [],
    )
  })

  it('lists private images in the grants document, and grants read_write to a restricted creator', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    await grantGlobal(api, member, 'add_images')
    const mine = await createImage(api, owner, 'owners')
    const theirs = await createImage(api, member, 'members')
    const doc = await api.request({
      method: 'GET',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
    })
    assert.equal(doc.status, 200)
    assert.deepEqual(doc.body.image, [
      { id: mine.numericId, label: 'owners', permissions: null },
      { id: theirs.numericId, label: 'members', permissions: 'read_write' },
    ])
    const granted = await api.request({
      method: 'PUT',
      url: `/v4/account/users/${member.user.username}/grants`,
      headers: owner.headers,
      payload: { image: [{ id: mine.numericId, permissions: 'read_only' }] },
    })
    assert.equal(granted.status, 200, JSON.stringify(granted.body))
    const view = await api.request({ method: 'GET', url: `/v4/images/${mine.id}`, headers: member.headers })
    assert.equal(view.status, 200)
    const change = await api.request({
      method: 'PUT',
      url: `/v4/images/${mine.id}`,
      headers: member.headers,
      payload: { label: 'nope' },
    })
    assert.equal(change.status, 403)
  })

  it('uses the in-memory blob store in tests', () => {
    assert.ok(api.app.blobs instanceof MemoryBlobStore)
  })
})
