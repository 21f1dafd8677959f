import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { describe, it } from 'node:test'
import Fastify from 'fastify'
import fp from 'fastify-plugin'
import { generateOpenApiDocument } from '../src/openapi-document.ts'
import { useTestApp } from './helpers/app.ts'

describe('OpenAPI document', () => {
  const api = useTestApp()

  it('the committed openapi.json is up to date (run `npm run openapi:export`)', async () => {
    const committed = readFileSync(new URL('../openapi.json', import.meta.url), 'utf8')
    const generated = await generateOpenApiDocument()
    assert.ok(committed === generated, 'openapi.json is stale: run `npm run openapi:export` and commit it')
  })

  it('is served at /v4/openapi.json: OpenAPI 3.1, /v4 paths, every operation with an id and its scopes', async () => {
    const res = await api.request({ method: 'GET', url: '/v4/openapi.json' })
    assert.equal(res.status, 200)
    const doc = res.body
    assert.equal(doc.openapi, '3.1.0')
    assert.equal(doc.info.version, '4.174.0')
    assert.deepEqual(doc.servers, [{ url: '/v4' }])
    assert.ok(doc.paths['/regions'])
    assert.ok(doc.paths['/account/events/{eventId}'])
    assert.ok(
      !Object.keys(doc.paths).some((p: string) => p.startsWith('/v4')),
      'paths are relative to the server URL',
    )
    const ids = new Set<string>()
    for (const [path, item] of Object.entries(
      doc.paths as Record<
        string,
        Record<string, { operationId?: string; security?: unknown; responses?: Record<string, unknown> }>
      >,
    )) {
      for (const [method, op] of Object.entries(item)) {
        assert.ok(op.operationId, `${method} ${path} has an operationId`)
        assert.ok(!ids.has(op.operationId), `operationId ${op.operationId} is unique`)
        ids.add(op.operationId)
        assert.ok(op.security, `${method} ${path} documents its security`)
        assert.ok(
          op.responses?.['200'] || op.responses?.['204'],
          `${method} ${path} documents its success response`,
        )
      }
    }
  })

  it('serves the interactive reference at /docs', async () => {
    const res = await api.request({ method: 'GET', url: '/docs' })
    assert.ok([200, 302].includes(res.status))
    const page = await api.request({ method: 'GET', url: '/docs/' })
    assert.equal(page.status, 200)
    assert.match(String(page.headers['content-type']), /text\/html/)
  })

  it("the reference's assets, its copy of the document and a HEAD come through with this app's headers", async () => {
    const script = await api.request({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' })
    assert.equal(script.status, 200)
    assert.match(String(script.headers['content-type']), /javascript/)
    assert.ok(script.raw.body.length > 100_000, 'the whole bundle')
    assert.ok(script.headers['x-request-id'], "this app's headers")
    assert.ok(script.headers['content-security-policy'], "the reference's policy")
    const json = await api.request({ method: 'GET', url: '/docs/json' })
    assert.deepEqual(json.body, (await api.request({ method: 'GET', url: '/v4/openapi.json' })).body)
    const head = await api.request({ method: 'HEAD', url: '/docs/' })
    assert.equal(head.status, 200)
    assert.equal(head.raw.body, '')
  })

  it('a path under /docs the reference does not have is a 404 with the error envelope', async () => {
    for (const [method, url] of [
      ['GET', '/docs/nothing-here'],
      ['GET', '/docs/static/nothing.js'],
      ['POST', '/docs/nothing-here'],
    ] as const) {
      const res = await api.request({ method, url })
      assert.equal(res.status, 404, `${method} ${url}`)
      assert.ok(Array.isArray(res.body.errors), url)
    }
  })

  it("another method on a path the reference has is a 405, on each of the reference's own routes", async () => {
    const { default: swaggerUi } = await import('@fastify/swagger-ui')
    const ui = Fastify()
    const urls: string[] = []
    ui.addHook('onRoute', (route) => {
      if ([route.method].flat().includes('GET')) urls.push(route.url.replace('*', 'swagger-ui.css'))
    })
    const document = () => ({ openapi: '3.1.0', info: { title: 'x', version: '1' }, paths: {} })
    await ui.register(
      fp(
        async (instance) => {
          instance.decorate('swagger', document)
        },
        { name: '@fastify/swagger' },
      ),
    )
    await ui.register(swaggerUi, { routePrefix: '/docs' })
    await ui.ready()
    await ui.close()
    assert.ok(urls.length >= 4, urls.join(' '))
    for (const url of urls) {
      const res = await api.request({ method: 'POST', url })
      assert.equal(res.status, 405, url)
      assert.match(String(res.headers.allow), /^GET, HEAD/, url)
    }
  })
})
