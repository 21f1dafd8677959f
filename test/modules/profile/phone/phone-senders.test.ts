import assert from 'node:assert/strict'
import { once } from 'node:events'
import { createServer, type IncomingMessage, type Server } from 'node:http'
import { Writable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import pino from 'pino'
import { WebhookPhoneCodeSender } from '../../../../src/modules/profile/phone/phone-senders.ts'
import { useTestApp } from '../../../helpers/app.ts'
import { createAccount } from '../../../helpers/factories.ts'
import { NO_PHONE_SEND_LIMITS } from '../profile-helpers.ts'

/** A local HTTP endpoint standing in for an SMS gateway adapter. */
async function startWebhook(status: () => number) {
  const received: Array<{ headers: IncomingMessage['headers']; body: unknown }> = []
  const server: Server = createServer((req, res) => {
    let text = ''
    req.on('data', (chunk) => {
      text += chunk
    })
    req.on('end', () => {
      received.push({ headers: req.headers, body: JSON.parse(text) })
      res.writeHead(status()).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return { url: `http://127.0.0.1:${address.port}/sms`, received, close: () => server.close() }
}

describe('phone code senders', () => {
  describe('webhook', () => {
    let webhook: Awaited<ReturnType<typeof startWebhook>>
    let answer = 204
    before(async () => {
      webhook = await startWebhook(() => answer)
    })
    const api = useTestApp(() => ({
      phoneSender: new WebhookPhoneCodeSender(webhook.url),
      phoneSendLimits: NO_PHONE_SEND_LIMITS,
    }))
    after(() => webhook.close())

    it('POSTs the code as JSON; the code it carried verifies the number', async () => {
      const owner = await createAccount(api)
      const res = await api.request({
        method: 'POST',
        url: '/v4/profile/phone-number',
        headers: owner.headers,
        payload: { iso_code: 'DE', phone_number: '030 901820' },
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      const delivery = webhook.received.at(-1)
      assert.ok(delivery)
      assert.match(String(delivery.headers['content-type']), /application\/json/)
      const body = delivery.body as { username: string; phone_number: string; code: string; expiry: string }
      assert.deepEqual(Object.keys(body), ['username', 'phone_number', 'code', 'expiry'])
      assert.equal(body.username, owner.user.username)
      assert.equal(body.phone_number, '+4930901820')
      const verified = await api.request({
        method: 'POST',
        url: '/v4/profile/phone-number/verify',
        headers: owner.headers,
        payload: { otp_code: body.code },
      })
      assert.equal(verified.status, 200)
    })

    it('a refusing gateway is a failed delivery (503)', async () => {
      const owner = await createAccount(api)
      answer = 500
      try {
        const res = await api.request({
          method: 'POST',
          url: '/v4/profile/phone-number',
          headers: owner.headers,
          payload: { iso_code: 'DE', phone_number: '030 901820' },
        })
        assert.equal(res.status, 503)
      } finally {
        answer = 204
      }
    })
  })

  describe('server log (the default)', () => {
    const lines: string[] = []
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk))
        done()
      },
    })
    const api = useTestApp({ logger: pino({ level: 'info' }, stream) })

    it('writes the code to the log, where an operator reads it', async () => {
      const owner = await createAccount(api)
      const res = await api.request({
        method: 'POST',
        url: '/v4/profile/phone-number',
        headers: owner.headers,
        payload: { iso_code: 'FR', phone_number: '01 23 45 67 89' },
      })
      assert.equal(res.status, 200, JSON.stringify(res.body))
      const line = lines.find((l) => l.includes('phone verification code for +33123456789'))
      assert.ok(line, lines.join(''))
      const code = /: ([0-9]{6}) /.exec(JSON.parse(line).msg)?.[1]
      assert.ok(code)
      const verified = await api.request({
        method: 'POST',
        url: '/v4/profile/phone-number/verify',
        headers: owner.headers,
        payload: { otp_code: code },
      })
      assert.equal(verified.status, 200)
      for (const l of lines) {
        if (l.includes('phone verification code')) continue
        assert.ok(!l.includes(code), 'the code appears only in its delivery line')
      }
    })
  })
})
