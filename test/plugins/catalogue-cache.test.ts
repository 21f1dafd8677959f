import assert from 'node:assert/strict'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import type { InjectOptions } from 'fastify'
import pino from 'pino'
import { buildApp } from '../../src/app.ts'
import { useTestApp } from '../helpers/app.ts'
import { createTestDatabase } from '../helpers/dialects.ts'

/** Everything a client sees of an answer but the request id, which differs by design. */
async function seen(api: ReturnType<typeof useTestApp>, options: InjectOptions) {
  const { raw } = await api.request(options)
  const headers = Object.entries(raw.headers).filter(([name]) => name !== 'x-request-id' && name !== 'date')
  return { status: raw.statusCode, headers, body: raw.rawPayload.toString('base64') }
}

const FILTER = { 'x-filter': JSON.stringify({ region: 'us-iad', available: true }) }

describe('the catalogue cache', () => {
  const api = useTestApp()

  it('answers from its text with the very headers, in order, and bytes the handler gave', async () => {
    const cases = [
      ['/v4/regions', {}],
      ['/v4/regions/us-east', {}],
      ['/v4/regions/availability', {}],
      ['/v4/regions/availability', FILTER],
      ['/v4/compute/types', {}],
      ['/v4/images?page=1', {}],
    ] as const
    for (const [url, headers] of cases) {
      for (const method of ['GET', 'HEAD'] as const) {
        const first = await seen(api, { method, url, headers })
        assert.equal(first.status, 200, `${method} ${url}`)
        for (let i = 0; i < 3; i++) assert.deepEqual(await seen(api, { method, url, headers }), first)
      }
    }
  })

  it('still refuses what validation refuses once the route has a cached answer', async () => {
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 200)
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 200)
    const small = await api.request({ method: 'GET', url: '/v4/regions?page_size=24' })
    assert.equal(small.status, 400)
    const filter = await api.request({ method: 'GET', url: '/v4/regions', headers: { 'x-filter': '{' } })
    assert.equal(filter.status, 400)
    const bad = await api.request({
      method: 'GET',
      url: '/v4/regions',
      headers: { authorization: 'Bearer x' },
    })
    assert.equal(bad.status, 401)
  })

  it('renders again once the catalogue changed', async () => {
    const before = await api.request({ method: 'GET', url: '/v4/regions/us-east' })
    assert.equal(before.body.status, 'ok')
    await api.db.updateTable('regions').set({ status: 'outage' }).where('id', '=', 'us-east').execute()
    try {
      assert.equal((await api.request({ method: 'GET', url: '/v4/regions/us-east' })).body.status, 'outage')
    } finally {
      await api.db.updateTable('regions').set({ status: 'ok' }).where('id', '=', 'us-east').execute()
    }
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions/us-east' })).body.status, 'ok')
  })
})

describe('the access log', () => {
  it('refuses at start-up a route whose URL holds a secret outside the segments it looks for', async () => {
    const { db } = await createTestDatabase()
    const sink = new Writable({ write: (_chunk, _encoding, done) => done() })
    const app = await buildApp({ db, logger: pino({ level: 'info' }, sink) })
    const route = async () => {
      app.get(
        '/v4/secrets/:secret',
        { config: { auth: { public: true }, sensitiveUrl: true } },
        async () => ({}),
      )
      await app.ready()
    }
    try {
      await assert.rejects(route(), /holds a secret outside image-uploads/)
    } finally {
      await app.close().catch(() => {})
      await db.destroy()
    }
  })
})
