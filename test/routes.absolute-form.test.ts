import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import type { TestApp } from './helpers/app.ts'
import { createAccount } from './helpers/factories.ts'
import { rawConnection } from './helpers/raw-connection.ts'
import { adminHeaders, bootstrapHeaders, useControlApp } from './modules/control/control-app.ts'
import { answerSecurityQuestions, requestTfaSecret } from './modules/profile/profile-helpers.ts'

const asTestApp = (app: unknown) => app as TestApp

/** Starts the app listening on a free local port, and returns the port. */
async function listenOnAnyPort(app: TestApp['app']): Promise<number> {
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  if (address === null || typeof address === 'string') throw new Error('not listening')
  return address.port
}
const ADMIN = adminHeaders['x-cloudplane-admin-key']

/** A request in absolute-form (`GET http://host/path`), which HTTP/1.1 servers must accept. */
async function absoluteForm(port: number, method: string, path: string): Promise<string> {
  const { socket, closed } = await rawConnection(port)
  socket.write(
    `${method} http://127.0.0.1:${port}${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\n` +
      `X-Cloudplane-Admin-Key: ${ADMIN}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`,
  )
  return closed
}

/**
 * A request target in absolute form is read as its path by everything that reads what the client
 * sent, as the router reads it: the controls stay exempt from the journal and from fault rules.
 */
describe('a control API call in absolute-form (`GET http://host/_cloudplane/…`)', () => {
  const api = useControlApp()
  let port: number
  before(async () => {
    port = await listenOnAnyPort(api.app)
  })

  it('is not journalled: the two-factor codes it hands out stay out of the journal', async () => {
    const owner = await createAccount(asTestApp(api))
    await answerSecurityQuestions(asTestApp(api), owner)
    await requestTfaSecret(asTestApp(api), owner)
    await api.admin('DELETE', '/journal')

    const answer = await absoluteForm(port, 'GET', `/_cloudplane/users/${owner.user.username}/tfa-code`)
    assert.match(answer, /^HTTP\/1\.1 200 /, answer)
    const code = /"pending":"(\d{6})"/.exec(answer)?.[1]
    assert.ok(code, answer)

    const journal = await api.admin('GET', '/journal?page_size=500')
    assert.equal(journal.status, 200)
    const text = JSON.stringify(journal.body.data)
    assert.ok(!text.includes(code), `the journal holds the two-factor code: ${text}`)
    assert.deepEqual(journal.body.data, [])
  })

  it('is exempt from fault rules, so a test can always clear its faults', async () => {
    const applied = await api.admin('POST', '/faults/presets/maintenance')
    assert.equal(applied.status, 200, JSON.stringify(applied.body))
    try {
      assert.equal(
        (await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })).status,
        503,
      )
      const answer = await absoluteForm(port, 'DELETE', '/_cloudplane/faults')
      assert.match(answer.split('\r\n')[0] ?? '', /^HTTP\/1\.1 200 /, answer)
    } finally {
      await api.admin('DELETE', '/faults')
    }
  })

  it('an API call in absolute form is journalled with its path', async () => {
    await api.admin('DELETE', '/journal')
    const answer = await absoluteForm(port, 'GET', '/v4/regions/us-iad?x=1')
    assert.match(answer, /^HTTP\/1\.1 200 /, answer)
    const journal = await api.admin('GET', '/journal')
    assert.deepEqual(
      journal.body.data.map((e: { path: string; query: string }) => [e.path, e.query]),
      [['/v4/regions/us-iad', 'x=1']],
    )
  })
})
