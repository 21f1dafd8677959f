import assert from 'node:assert/strict'
import type { AddressInfo } from 'node:net'
import { describe, it } from 'node:test'
import { buildApp } from '../../../src/app.ts'
import { AdjustableClock, formatTimestamp } from '../../../src/common/time.ts'
import { ensureAdminKey } from '../../../src/modules/control/admin-key.ts'
import { journalBody, redactValue } from '../../../src/modules/control/journal/journal-redact.ts'
import { JournalWriter } from '../../../src/modules/control/journal/journal-writer.ts'
import { prepareDatabase } from '../../../src/setup.ts'
import type { TestApp } from '../../helpers/app.ts'
import { createTestDatabase } from '../../helpers/dialects.ts'
import { createAccount } from '../../helpers/factories.ts'
import { waitFor } from '../../helpers/wait-for.ts'
import { gz, putData, rawImage, startUpload } from '../images/image-helpers.ts'
import { answerSecurityQuestions } from '../profile/profile-helpers.ts'
import {
  ADMIN_KEY,
  adminHeaders,
  BOOTSTRAP_TOKEN,
  bootstrapHeaders,
  type ControlApp,
  useControlApp,
} from './control-app.ts'
import { journalEntry } from './journal-entry.ts'

const asTestApp = (api: ControlApp) => api as unknown as TestApp

const entry = (i: number, atMs: number) => journalEntry(`/v4/ring/${i}`, atMs)

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
    assert.equal(post.outcome, null)
    assert.equal(listed.query, 'page=1&page_size=25')
    assert.equal(notFound.status, 404)
    assert.deepEqual(notFound.response_body, { errors: [{ reason: 'Not found' }] })
    // Nowhere the token itself.
    assert.ok(!JSON.stringify(res.body).includes(owner.token))
  })

  it('records a /v4beta request under the path the client sent', async () => {
    await api.admin('DELETE', '/journal')
    const res = await api.request({ method: 'GET', url: '/v4beta/regions/us-iad?page=1' })
    assert.equal(res.status, 200)
    const [entry] = (await journal()).body.data
    assert.equal(entry.path, '/v4beta/regions/us-iad')
    assert.equal(entry.query, 'page=1')
    assert.equal(entry.status, 200)
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
    // Text without a secret key is kept as sent; a word in a value is not a key.
    const plain = '{ "label": "password reset", "tags": ["token"] }'
    assert.equal(journalBody(plain), plain)
    // A key spelled with escapes is still found, as is one in pretty-printed or nested text.
    assert.equal(journalBody('{"to\\u006ben": "s3"}'), '{"token":"[redacted]"}')
    assert.equal(journalBody('{\n  "a": [{\n "root_pass": "s3"}]}'), '{"a":[{"root_pass":"[redacted]"}]}')
    // A profile's referral code is public (its URL spells it out): kept, the text as sent. A `code`
    // anywhere else (an OAuth code) is still a secret, beside it or deeper.
    const profile = '{"referrals": {"total": 0, "code": "r3f", "url": "https://x/?r=r3f"}, "uid": 1}'
    assert.equal(journalBody(profile), profile)
    assert.equal(journalBody('{"a": 1, "code": "s3"}'), '{"a":1,"code":"[redacted]"}')
    assert.equal(
      journalBody('{"referrals": {"code": "r3f", "password": "s3", "x": {"code": "s3"}}}'),
      '{"referrals":{"code":"r3f","password":"[redacted]","x":{"code":"[redacted]"}}}',
    )
    assert.equal(
      journalBody('{"note": "\\"referrals\\": {", "code": "s3"}'),
      '{"note":"\\"referrals\\": {","code":"[redacted]"}',
    )
  })

  it('redacts through the API a password, a two-factor secret, its codes and scratch code, and a phone code', async () => {
    await api.admin('DELETE', '/journal')
    const owner = await createAccount(asTestApp(api))
    const instance = await api.request({
      method: 'POST',
      url: '/v4/compute/instances',
      headers: owner.headers,
      payload: {
        type: 'g6-nanode-1',
        region: 'us-ord',
        image: 'compute/debian12',
        root_pass: 'Root-Pass-9x',
      },
    })
    assert.equal(instance.status, 200, JSON.stringify(instance.body))
    await answerSecurityQuestions(asTestApp(api), owner)
    const enabled = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable',
      headers: owner.headers,
    })
    assert.equal(enabled.status, 200, JSON.stringify(enabled.body))
    const code = (await api.admin('GET', `/users/${owner.user.username}/tfa-code`)).body.pending as string
    const confirmed = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable-confirm',
      headers: owner.headers,
      payload: { tfa_code: code },
    })
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body))
    // A phone code is a secret whether or not it is right.
    await api.request({
      method: 'POST',
      url: '/v4/profile/phone-number/verify',
      headers: owner.headers,
      payload: { otp_code: '918273' },
    })
    const entries = (await journal(`?username=${owner.user.username}`)).body.data as Array<{
      path: string
      request_body: Record<string, unknown> | null
      response_body: Record<string, unknown> | null
    }>
    const text = JSON.stringify(entries)
    const secrets = ['Root-Pass-9x', enabled.body.secret, code, confirmed.body.scratch, '918273', 'Saab 900']
    for (const secret of secrets) assert.ok(!text.includes(String(secret)), `${secret} reached the journal`)
    const at = (path: string) => entries.find((e) => e.path === path)
    assert.equal(at('/v4/compute/instances')?.request_body?.root_pass, '[redacted]')
    assert.equal(at('/v4/profile/tfa-enable')?.response_body?.secret, '[redacted]')
    assert.equal(at('/v4/profile/tfa-enable-confirm')?.request_body?.tfa_code, '[redacted]')
    assert.equal(at('/v4/profile/tfa-enable-confirm')?.response_body?.scratch, '[redacted]')
    assert.equal(at('/v4/profile/phone-number/verify')?.request_body?.otp_code, '[redacted]')
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

    // A delay, then a status: the rule that answered is named, and both count a firing.
    await api.admin('DELETE', '/journal')
    const delay = await api.admin('POST', '/faults', { path: '/v4/regions', latency_ms: 1 })
    const answer = await api.admin('POST', '/faults', { path: '/v4/regions', status: 502 })
    assert.equal((await api.request({ method: 'GET', url: '/v4/regions' })).status, 502)
    const [both] = (await journal()).body.data
    assert.equal(both.fault_rule, answer.body.id)
    const fired = (await api.admin('GET', '/faults')).body.data.map((r: { id: number; fired: number }) => [
      r.id,
      r.fired,
    ])
    assert.deepEqual(fired, [
      [delay.body.id, 1],
      [answer.body.id, 1],
    ])
    await api.admin('DELETE', '/faults')
  })

  it('is a ring: bounded by count and by age', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log, { maxEntries: 5, maxAgeMs: 3600_000 })
    const now = api.clock.now().getTime()
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

  it('buffers entries as bytes and writes back every field as pushed, redacted', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log)
    const now = api.clock.now().getTime()
    const long = { label: 'x'.repeat(40_000), password: 'hunter2' }
    writer.push({
      ...entry(0, now - 1000),
      method: 'POST',
      path: '/v4/bytes/ünïcødé/😀',
      query: 'label=%C3%A9t%C3%A9&page=2',
      status: null,
      durationMs: 12.3456,
      accountId: 7,
      userId: 8,
      tokenId: 9,
      faultRule: 10,
      outcome: 'dropped',
      // A value another parser made (a form), and bytes as a reply may be.
      requestBody: { label: 'été', root_pass: 'hide-me' },
      responseBody: Buffer.from(JSON.stringify({ token: 'hide-me-too', label: 'ok ✓' })),
    })
    writer.push({
      ...entry(1, now),
      path: '/v4/bytes/long',
      requestBody: JSON.stringify(long),
      responseBody: '',
      outcome: 'client_closed',
    })
    writer.push({ ...entry(2, now), path: '/v4/bytes/plain', status: 0, accountId: 0 })
    await writer.close()
    const [plain, longEntry, first] = (await journal('?path=/v4/bytes/')).body.data
    assert.equal(first.method, 'POST')
    assert.equal(first.path, '/v4/bytes/ünïcødé/😀')
    assert.equal(first.query, 'label=%C3%A9t%C3%A9&page=2')
    assert.equal(first.time, new Date(now - 1000).toISOString().replace('Z', ''))
    assert.deepEqual(
      [first.status, first.duration_ms, first.account_id, first.user_id, first.token_id, first.fault_rule],
      [null, 12.346, 7, 8, 9, 10],
    )
    assert.equal(first.outcome, 'dropped')
    assert.deepEqual(first.request_body, { label: 'été', root_pass: '[redacted]' })
    assert.deepEqual(first.response_body, { token: '[redacted]', label: 'ok ✓' })
    assert.equal(longEntry.outcome, 'client_closed')
    assert.equal(longEntry.response_body, null)
    assert.equal(longEntry.request_body.password, '[redacted]')
    assert.equal(longEntry.request_body.label, long.label)
    assert.deepEqual(
      [
        plain.method,
        plain.query,
        plain.status,
        plain.account_id,
        plain.user_id,
        plain.request_body,
        plain.outcome,
      ],
      ['GET', '', 0, 0, null, null, null],
    )
  })

  it('never holds a request up: past its buffer a process drops entries and the listing counts them', async () => {
    await api.admin('DELETE', '/journal')
    const writer = new JournalWriter(api.db, api.clock, api.app.log, { maxBuffered: 3 })
    const now = api.clock.now().getTime()
    for (let i = 0; i < 10; i++) writer.push(entry(i, now))
    await writer.close()
    const listed = (await journal('?path=/v4/ring/')).body
    assert.equal(listed.results, 3)
    assert.equal(listed.dropped, 7)
    await api.admin('DELETE', '/journal')
    assert.equal((await journal()).body.dropped, 0)
  })

  it('records a connection a fault rule dropped, and a request whose client went away first', async () => {
    await api.admin('DELETE', '/journal')
    await api.app.listen({ port: 0, host: '127.0.0.1' })
    const base = `http://127.0.0.1:${(api.app.server.address() as AddressInfo).port}`
    const drop = await api.admin('POST', '/faults', { method: 'DELETE', path: '/v4/vpcs/*', drop: true })
    await assert.rejects(fetch(`${base}/v4/vpcs/4242`, { method: 'DELETE', headers: bootstrapHeaders }))
    const dropped = await waitFor(
      async () => (await journal('?method=DELETE')).body.data[0] as Record<string, unknown> | undefined,
      { message: 'the dropped request in the journal' },
    )
    assert.equal(dropped.path, '/v4/vpcs/4242')
    assert.equal(dropped.status, null)
    assert.equal(dropped.outcome, 'dropped')
    assert.equal(dropped.fault_rule, drop.body.id)
    assert.equal(typeof dropped.token_id, 'number')
    assert.equal(dropped.response_body, null)
    await api.admin('DELETE', '/faults')

    // The client gives up while a slow answer is on its way: the answer is recorded as unseen.
    const slow = await api.admin('POST', '/faults', { path: '/v4/regions/us-ord', latency_ms: 1500 })
    const gaveUp = new AbortController()
    const request = fetch(`${base}/v4/regions/us-ord`, { signal: gaveUp.signal })
    await waitFor(async () => (await api.admin('GET', '/faults')).body.data[0]?.fired === 1, {
      message: 'the slow request at the server',
    })
    gaveUp.abort()
    await assert.rejects(request)
    const closed = await waitFor(
      async () =>
        (await journal('?path=/v4/regions/us-ord')).body.data[0] as Record<string, unknown> | undefined,
      { message: 'the abandoned request in the journal' },
    )
    assert.equal(closed.outcome, 'client_closed')
    assert.equal(closed.status, 200)
    assert.equal(closed.fault_rule, slow.body.id)
    assert.equal((await journal('?status=200&path=/v4/regions/us-ord')).body.results, 1)
    await api.admin('DELETE', '/faults')
  })
})

describe('the request journal, off', () => {
  it('records nothing with the control API off (operator mode) or CLOUDPLANE_JOURNAL=off', async () => {
    const database = await createTestDatabase()
    const clock = new AdjustableClock()
    try {
      await prepareDatabase(database.db, clock, { defaultAccount: true, bootstrapToken: BOOTSTRAP_TOKEN })
      await ensureAdminKey(database.db, ADMIN_KEY)
      for (const options of [{ control: false }, { control: true, journal: false }]) {
        const app = await buildApp({ db: database.db, clock, ...options })
        try {
          const read = await app.inject({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })
          assert.equal(read.statusCode, 200)
          const listing = await app.inject({
            method: 'GET',
            url: '/_cloudplane/journal',
            headers: adminHeaders,
          })
          assert.equal(listing.statusCode, 404)
        } finally {
          await app.close()
        }
      }
      // Nothing was written by either (the listing is gone with it, so the table is read itself).
      const rows = await database.db.selectFrom('control_journal').select('id').execute()
      assert.equal(rows.length, 0)
    } finally {
      await database.db.destroy()
      await database.drop()
    }
  })
})
