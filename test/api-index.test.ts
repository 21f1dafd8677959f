import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { useTestApp } from './helpers/app.ts'

describe('pointers to the reference, and the reference itself', () => {
  const api = useTestApp()

  it('GET /, /v4 and /v4beta point to /docs and /v4/openapi.json; other unknown paths stay 404s', async () => {
    for (const url of ['/', '/v4', '/v4/', '/v4beta']) {
      const res = await api.request({ method: 'GET', url })
      assert.equal(res.status, 200, url)
      assert.equal(res.body.docs, '/docs', url)
      assert.equal(res.body.openapi, '/v4/openapi.json', url)
    }
    const unknown = await api.request({ method: 'GET', url: '/v5' })
    assert.equal(unknown.status, 404)
    assert.deepEqual(unknown.body, { errors: [{ reason: 'Not found' }] })
  })

  it('serves /v4beta as /v4: the same answers, 405s and 404s; /v4betas is another path', async () => {
    const v4 = await api.request({ method: 'GET', url: '/v4/regions/us-iad?x=1' })
    const beta = await api.request({ method: 'GET', url: '/v4beta/regions/us-iad?x=1' })
    assert.equal(beta.status, 200)
    assert.deepEqual(beta.body, v4.body)
    const wrongMethod = await api.request({ method: 'DELETE', url: '/v4beta/regions' })
    assert.equal(wrongMethod.status, 405)
    assert.match(String(wrongMethod.headers.allow), /GET/)
    for (const url of ['/v4beta/nothing-here', '/v4betas/regions', '/v4beta2']) {
      const res = await api.request({ method: 'GET', url })
      assert.equal(res.status, 404, url)
      assert.deepEqual(res.body, { errors: [{ reason: 'Not found' }] }, url)
    }
    const index = await api.request({ method: 'GET', url: '/v4beta?from=browser' })
    assert.equal(index.status, 200)
    assert.equal(index.body.docs, '/docs')
  })

  it('the docs page carries our title and our SVG favicon', async () => {
    const page = await api.request({ method: 'GET', url: '/docs/' })
    assert.equal(page.status, 200)
    const html = page.raw.body
    assert.match(html, /<title>cloudplane: Cloud Infrastructure API v4<\/title>/)
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(html)?.[1]
    assert.ok(href, 'the page links an SVG icon')
    assert.doesNotMatch(html, /favicon-32x32\.png/, "Swagger's own icon is gone")
    const icon = await api.request({ method: 'GET', url: new URL(href, 'http://x/docs/').pathname })
    assert.equal(icon.status, 200)
    assert.match(String(icon.headers['content-type']), /image\/svg\+xml/)
    assert.match(icon.raw.body, /^<svg /)
  })

  it('the document lists its groups in the API document order, VPCs first, and paths follow them', async () => {
    const doc = (await api.request({ method: 'GET', url: '/v4/openapi.json' })).body
    const tags = (doc.tags as Array<{ name: string }>).map((t) => t.name)
    assert.deepEqual(tags.slice(0, 4), ['VPCs', 'Regions', 'Images', 'Profile'])
    const used = new Set<string>()
    for (const item of Object.values(doc.paths) as Array<Record<string, { tags?: string[] }>>) {
      for (const op of Object.values(item)) for (const tag of op.tags ?? []) used.add(tag)
    }
    assert.deepEqual(
      [...used].filter((t) => !tags.includes(t)),
      [],
      'every tag in use is listed',
    )
    const firstTags = Object.values(doc.paths).map(
      (item) => Object.values(item as Record<string, { tags?: string[] }>)[0]?.tags?.[0] ?? '',
    )
    const ranks = firstTags.map((t) => tags.indexOf(t))
    assert.deepEqual(
      ranks,
      [...ranks].sort((a, b) => a - b),
      'paths are grouped in tag order',
    )
    assert.equal(firstTags[0], 'VPCs')
  })

  it('documents page and page_size as integers, and still answers bad values with the same 400s', async () => {
    const doc = (await api.request({ method: 'GET', url: '/v4/openapi.json' })).body
    let lists = 0
    for (const item of Object.values(doc.paths) as Array<
      Record<string, { parameters?: Array<{ in: string; name: string; schema: { type: string } }> }>
    >) {
      for (const op of Object.values(item)) {
        for (const p of op.parameters ?? []) {
          if (p.in === 'query' && (p.name === 'page' || p.name === 'page_size')) {
            assert.equal(p.schema.type, 'integer', p.name)
            lists++
          }
        }
      }
    }
    assert.ok(lists > 10, 'the list operations document their page query')
    for (const query of ['page=0', 'page=abc', 'page_size=24', 'page_size=-1']) {
      const res = await api.request({ method: 'GET', url: `/v4/regions?${query}` })
      assert.equal(res.status, 400, query)
      assert.ok(Array.isArray(res.body.errors) && res.body.errors.length > 0, query)
    }
  })
})
