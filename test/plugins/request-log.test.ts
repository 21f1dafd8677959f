import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { Writable } from 'node:stream'
import { describe, it } from 'node:test'
import pino from 'pino'
import { useTestApp } from '../helpers/app.ts'

describe('the access log', () => {
  const lines: string[] = []
  const sink = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk))
      done()
    },
  })
  const api = useTestApp({ logger: pino({ level: 'info' }, sink) })

  it('keeps an upload secret out, whatever the method, the case or the slashes of its path', async () => {
    const secret = randomBytes(32).toString('base64url')
    const requests: Array<{ method: 'OPTIONS' | 'GET' | 'PUT'; url: string }> = [
      { method: 'OPTIONS', url: `/image-uploads/${secret}` },
      { method: 'PUT', url: `//image-uploads/${secret}` },
      { method: 'PUT', url: `/Image-Uploads/${secret}` },
      { method: 'GET', url: `/IMAGE-UPLOADS//${secret}?x=1` },
      { method: 'PUT', url: `/%69mage-uploads/${secret}` },
      { method: 'PUT', url: `/v4/../image-uploads/${secret}` },
      { method: 'PUT', url: `/image-uploads%2F${secret}` },
    ]
    for (const { method, url } of requests) {
      lines.length = 0
      await api.request({
        method,
        url,
        headers: { origin: 'https://app.example.test', 'access-control-request-method': 'PUT' },
      })
      const logged = lines.filter((l) => l.includes('"msg":"request"'))
      assert.equal(logged.length, 1, `${method} ${url} is logged once`)
      assert.ok(!logged[0]?.includes(secret.slice(0, 12)), `${method} ${url}: ${logged[0]}`)
      assert.match(logged[0] ?? '', /image-uploads\/(\[redacted\]|:token|\*)/)
    }
  })

  it('logs other paths as they are', async () => {
    lines.length = 0
    await api.request({ method: 'GET', url: '/v4/regions?page=2' })
    assert.match(lines.join(''), /"url":"\/v4\/regions"/)
    lines.length = 0
    // /v4beta is routed as /v4; the log shows what the client asked for.
    await api.request({ method: 'GET', url: '/v4beta/regions' })
    assert.match(lines.join(''), /"url":"\/v4beta\/regions"/)
  })
})
