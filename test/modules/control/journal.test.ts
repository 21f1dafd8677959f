import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { formatTimestamp } from '../../../src/common/time.ts'
import { journalBody, redactValue } from '../../../src/modules/control/journal/journal-redact.ts'
import { JournalWriter, type PendingEntry } from '../../../src/modules/control/journal/journal-writer.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createAccount } from '../../helpers/factories.ts'
import { gz, putData, rawImage, startUpload } from '../images/image-helpers.ts'
import { BOOTSTRAP_TOKEN, bootstrapHeaders, type ControlApp, useControlApp } from './control-app.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp

describe('the request journal', () => {
  const api = useControlApp()
  const journal = (query = '') => api.admin('GET', `/journal${query}`)

  it('records each API request: method, path, query, status, duration, account, user, token id', async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    const created = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: owner.headers,
      payload: { label: 'journalled', region: 'us-iad' },
    })
    assert.equal(created.status, 200)
    await api.request({ method: 'GET', url: '/v4/vpcs?page=1&page_size=25', headers: owner.headers })
    await api.request({ method: 'GET', url: '/v4/vpcs/999999', headers: owner.headers })
    // The control API itself is not journalled.
    const res = await journal()
    assert.equal(res.status, 200, JSON.stringify(res.body))
    assert.equal(res.body.results, 3)
    const [notFound, listed, post] = res.body.data
    assert.equal(post.method, 'POST')
    assert.equal(post.path, '/v4/vpcs')
    assert.equal(post.status, 200)
    assert.equal(post.account_id, owner.accountId)
    assert.equal(post.user_id, owner.user.id)
    assert.equal(typeof post.token_id, 'number')
    assert.equal(post.process, String(process.pid))
    assert.ok(post.duration_ms > 0)
    assert.deepEqual(post.request_body, { label: 'journalled', region: 'us-iad' })
    assert.equal(post.response_body.label, 'journalled')
    assert.equal(post.fault_rule, null)
    assert.equal(listed.query, 'page=1&page_size=25')
    assert.equal(notFound.status, 404)
    assert.deepEqual(notFound.response_body, { errors: [{ reason: 'Not found' }] })
    // Nowhere the token itself.
    assert.ok(!JSON.stringify(res.body).includes(owner.token))
  })

  it('redacts secrets: tokens, passwords, 2FA and phone codes, security answers, upload URLs and data', async () => {
    await api.admin('DELETE', '/journal')
    const token = await api.request({
      method: 'POST',
      url: '/v4/profile/tokens',
      headers: bootstrapHeaders,
      payload: { label: 'secret-bearing', scopes: '*' },
    })
    assert.equal(token.status, 200)
    const answers = await api.request({
      method: 'POST',
      url: '/v4/profile/security-questions',
      headers: bootstrapHeaders,
      payload: {
        security_questions: [
          { question_id: 1, response: 'Springfield' },
          { question_id: 2, response: 'Springfield' },
          { question_id: 3, response: 'Springfield' },
        ],
      },
    })
    const owner = await createAccount(asTestApp(api))
    const upload = await startUpload(asTestApp(api), owner, { label: 'up', region: 'us-iad' })
    await putData(asTestApp(api), upload.path, gz(rawImage(4096)))
    const entries = (await journal()).body.data as Array<Record<string, unknown>>
    const text = JSON.stringify(entries)
    for (const secret of [String(token.body.token), BOOTSTRAP_TOKEN, upload.token, owner.token]) {
      assert.ok(!text.includes(secret), 'a secret reached the journal')
    }
    const tokenEntry = entries.find((e) => e.path === '/v4/profile/tokens') as {
      response_body: { token: string }
    }
    assert.equal(tokenEntry.response_body.token, '[redacted]')
    const uploadCreate = entries.find((e) => e.path === '/v4/images/upload') as {
      response_body: { upload_to: string }
    }
    assert.equal(uploadCreate.response_body.upload_to, '[redacted]')
    const put = entries.find((e) => String(e.path).startsWith('/image-uploads/')) as Record<string, unknown>
    assert.equal(put.path, '/image-uploads/[redacted]')
    assert.equal(put.request_body, null)
    assert.equal(answers.status, 200, JSON.stringify(answers.body))
    assert.ok(!text.includes('Springfield'))

    // Every kind of secret by its field name, at any depth.
    const redacted = redactValue({
      token: 't',
      password: 'p',
      tfa_code: '123456',
      secret: 's',
      scratch: 'x',
      otp_code: '1234',
      security_questions: [{ question_id: 1, response: 'hide', answer: 'hide' }],
      nested: { client_secret: 'c', root_pass: 'r', label: 'keep' },
    })
    assert.deepEqual(redacted, {
      token: '[redacted]',
      password: '[redacted]',
      tfa_code: '[redacted]',
      secret: '[redacted]',
      scratch: '[redacted]',
      otp_code: '[redacted]',
      security_questions: [{ question_id: 1, response: '[redacted]', answer: '[redacted]' }],
      nested: { client_secret: '[redacted]', root_pass: '[redacted]', label: 'keep' },
    })
    assert.equal(journalBody('not json'), '[8 bytes, not JSON]')
  })

  it('is queried by method, path prefix, status, account and time range, with paging', async () => {
    await api.admin('DELETE', '/journal')
    const alice = await createAccount(asTestApp(api))
    const bob = await createAccount(asTestApp(api))
    const started = formatTimestamp(new Date(api.clock.now().getTime() - 1000))
    for (let i = 0; i < 5; i++) await api.request({ method: 'GET', url: '/v4/vpcs', headers: alice.headers })
    await api.request({ method: 'GET', url: '/v4/regions', headers: bob.headers })
    await api.request({ method: 'DELETE', url: '/v4/vpcs/999999', headers: bob.headers })

    assert.equal((await journal('?method=DELETE')).body.results, 1)
    assert.equal((await journal('?path=/v4/vpcs')).body.results, 6)
    assert.equal((await journal('?path=/v4/regions')).body.results, 1)
    assert.equal((await journal('?status=404')).body.data[0].method, 'DELETE')
    assert.equal((await journal(`?username=${alice.user.username}`)).body.results, 5)
    assert.equal((await journal(`?since=${started}`)).body.results, 7)
    assert.equal((await journal(`?until=${started}`)).body.results, 0)
    const page2 = await journal('?page_size=3&page=2')
    assert.equal(page2.body.page, 2)
    assert.equal(page2.body.pages, 3)
    assert.equal(page2.body.data.length, 3)
    assert.equal((await journal('?since=yesterday')).status, 400)
  })

  it('exports an entry as a curl command without the token; clearing is one call', async () => {
    await api.admin('DELETE', '/journal')
    await api.request({
      method: 'POST',
      url: '/v4/vpcs?x=1',
      headers: bootstrapHeaders,
      payload: { label: "it's-curl", region: 'us-iad' },
    })
    const [entry] = (await journal()).body.data
    const curl = await api.admin('GET', `/journal/${entry.id}/curl`)
    assert.equal(curl.status, 200)
    assert.equal(
      curl.body,
      `curl -X POST 'http://localhost:80/v4/vpcs?x=1' -H "Authorization: Bearer $CLOUDPLANE_TOKEN" -H 'Content-Type: application/json' --data '{"label":"it'\\''s-curl","region":"us-iad"}'\n`,
    )
    assert.ok(!curl.body.includes(BOOTSTRAP_TOKEN))
    assert.equal((await api.admin('GET', '/journal/999999/curl')).status, 404)
    const cleared = await api.admin('DELETE', '/journal')
    assert.equal(cleared.body.deleted, 1)
    assert.equal((await journal()).body.results, 0)
  })

  it('names the fault rule that answered a request', async () => {
    await api.admin('DELETE', '/journal')
    const rule = await api.admin('POST', '/faults', { path: '/v4/regions', status: 500, times: 1 })
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 500)
    const [entry] = (await journal()).body.data
    assert.equal(entry.fault_rule, rule.body.id)
    assert.equal(entry.status, 500)
    await api.admin('DELETE', '/faults')
  })

  it('is a ring: bounded by count and by age', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log, { maxEntries: 5, maxAgeMs: 3600_000 })
    const now = api.clock.now().getTime()
    const entry = (i: number, atMs: number): PendingEntry => ({
      atMs,
      realMs: Date.now(),
      method: 'GET',
      path: `/v4/ring/${i}`,
      query: '',
      status: 200,
      durationMs: 1,
      accountId: null,
      userId: null,
      tokenId: null,
      requestBody: undefined,
      responseBody: undefined,
      faultRule: null,
    })
    // Two too old, then twelve: the ring keeps the newest five.
    writer.push(entry(0, now - 2 * 3600_000))
    writer.push(entry(1, now - 2 * 3600_000))
    await writer.flush()
    for (let i = 2; i < 14; i++) {
      writer.push(entry(i, now))
      await writer.flush()
    }
    await writer.close()
    const listed = (await journal('?path=/v4/ring/')).body
    assert.equal(listed.results, 5)
    assert.deepEqual(
      listed.data.map((e: { path: string }) => e.path),
      [13, 12, 11, 10, 9].map((i) => `/v4/ring/${i}`),
    )
  })
})
