import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { buffer } from 'node:stream/consumers'
import { after, before, describe, it } from 'node:test'
import { encodeState } from '../../../src/modules/control/state-encoding.ts'
import {
  adminHeaders,
  bootstrapHeaders,
  buildControlApp,
  type ControlApp,
  newAccount,
  useControlApp,
} from './control-app.ts'

async function createVpc(api: ControlApp, headers: Record<string, string>, label: string) {
  const res = await api.request({
    method: 'POST',
    url: '/v4/vpcs',
    headers,
    payload: { label, region: 'us-iad', subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }] },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}

const vpcLabels = async (api: ControlApp, headers: Record<string, string>) =>
  (await api.request({ method: 'GET', url: '/v4/vpcs', headers })).body.data.map(
    (v: { label: string }) => v.label,
  )

describe('reset', () => {
  const api = useControlApp()

  it('puts the whole state back as after the first start: the bootstrap token works, ids start over', async () => {
    const profile = (await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })).body
    const first = await createVpc(api, bootstrapHeaders, 'before-reset')
    const other = await newAccount(api, 'someone-else')
    await createVpc(api, other.headers, 'theirs')
    await api.admin('POST', '/clock/advance', { by: '3h' })

    const reset = await api.admin('POST', '/reset')
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    assert.deepEqual(await vpcLabels(api, bootstrapHeaders), [])
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/profile', headers: other.headers })).status,
      401,
    )
    const after = (await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })).body
    assert.deepEqual(after, profile)
    assert.equal((await api.admin('GET', '/clock')).body.offset_seconds, 0, 'real time again')
    const again = await createVpc(api, bootstrapHeaders, 'after-reset')
    assert.equal(again.id, first.id, 'the id sequence starts over')
    const regions = await api.request({ method: 'GET', url: '/v4/regions' })
    assert.equal(regions.status, 200)
    assert.ok(regions.body.data.length > 0, 'the catalogue is still there')
  })

  it('empties a large table too (re-created rather than deleted row by row), indexes and all', async () => {
    const profile = (await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })).body
    const account = await api.db
      .selectFrom('users')
      .select('account_id')
      .where('username', '=', profile.username)
      .executeTakeFirstOrThrow()
    const rows = Array.from({ length: 1500 }, (_, i) => ({
      account_id: account.account_id,
      user_id: null,
      username: 'bulk',
      action: 'vpc_create',
      entity_type: 'vpc',
      entity_id: i + 1,
      entity_label: `bulk-${i}`,
      entity_url: `/v4/vpcs/${i + 1}`,
      status: 'notification',
      message: '',
      seen: false,
      read: false,
      created: '2026-01-01T00:00:00',
      json_tail: '',
    }))
    for (let i = 0; i < rows.length; i += 500) {
      await api.db
        .insertInto('events')
        .values(rows.slice(i, i + 500))
        .execute()
    }
    assert.equal((await api.admin('POST', '/reset')).status, 200)
    const events = await api.request({ method: 'GET', url: '/v4/account/events', headers: bootstrapHeaders })
    assert.equal(events.status, 200)
    assert.equal(events.body.results, 0)
    await createVpc(api, bootstrapHeaders, 'after-bulk')
    const again = await api.request({ method: 'GET', url: '/v4/account/events', headers: bootstrapHeaders })
    assert.deepEqual(
      again.body.data.map((e: { action: string }) => e.action).sort(),
      ['subnet_create', 'vpc_create'],
      'events are recorded in the re-created table',
    )
  })

  it('resets the default account by its username to how the first start left it', async () => {
    const other = await newAccount(api, 'bystander')
    await createVpc(api, other.headers, 'bystander-net')
    await createVpc(api, bootstrapHeaders, 'default-net')
    const profile = (await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })).body
    const reset = await api.admin('POST', '/reset', { username: profile.username })
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    assert.deepEqual(await vpcLabels(api, bootstrapHeaders), [])
    assert.deepEqual(
      (await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })).body,
      profile,
    )
    assert.deepEqual(await vpcLabels(api, other.headers), ['bystander-net'])
  })

  it('resets one account by username, leaving the others untouched', async () => {
    const mine = await newAccount(api, 'job-one')
    const theirs = await newAccount(api, 'job-two')
    await createVpc(api, mine.headers, 'mine')
    await createVpc(api, theirs.headers, 'theirs-kept')

    const reset = await api.admin('POST', '/reset', { username: 'job-one' })
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    assert.deepEqual(await vpcLabels(api, mine.headers), [], "the account's resources are gone")
    assert.equal(
      (await api.request({ method: 'GET', url: '/v4/profile', headers: mine.headers })).status,
      200,
      'its token still works',
    )
    assert.deepEqual(await vpcLabels(api, theirs.headers), ['theirs-kept'])

    const unknown = await api.admin('POST', '/reset', { username: 'nobody-here' })
    assert.equal(unknown.status, 400)
  })
})

describe('snapshots', () => {
  const api = useControlApp()
  let elsewhere: ControlApp
  before(async () => {
    elsewhere = await buildControlApp()
  })
  after(async () => elsewhere.close())

  it('save, change, restore: ids, tokens and timestamps come back exactly; list and delete', async () => {
    const account = await newAccount(api, 'snapper')
    const vpc = await createVpc(api, account.headers, 'saved')
    const saved = await api.admin('POST', '/snapshots', { name: 'one' })
    assert.equal(saved.status, 200)
    assert.equal(saved.body.name, 'one')

    await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: account.headers })
    await createVpc(api, account.headers, 'later')
    const restored = await api.admin('POST', '/snapshots/one/restore')
    assert.equal(restored.status, 200)
    const back = await api.request({ method: 'GET', url: `/v4/vpcs/${vpc.id}`, headers: account.headers })
    assert.equal(back.status, 200)
    assert.deepEqual(back.body, vpc)
    assert.deepEqual(await vpcLabels(api, account.headers), ['saved'])

    const list = await api.admin('GET', '/snapshots')
    assert.deepEqual(
      list.body.data.map((s: { name: string }) => s.name),
      ['one'],
    )
    assert.equal((await api.admin('DELETE', '/snapshots/one')).status, 200)
    assert.equal((await api.admin('POST', '/snapshots/one/restore')).status, 404)
    assert.equal((await api.admin('POST', '/snapshots', { name: '../bad' })).status, 400)
  })

  it('a restore is atomic: requests during it see the old state or the new, never a mix', async () => {
    const account = await newAccount(api, 'atomic')
    await createVpc(api, account.headers, 'old-1')
    await createVpc(api, account.headers, 'old-2')
    assert.equal((await api.admin('POST', '/snapshots', { name: 'old' })).status, 200)
    const ids = (
      await api.request({ method: 'GET', url: '/v4/vpcs', headers: account.headers })
    ).body.data.map((v: { id: number }) => v.id)
    for (const id of ids)
      await api.request({ method: 'DELETE', url: `/v4/vpcs/${id}`, headers: account.headers })
    await createVpc(api, account.headers, 'new-1')

    const readers = Array.from({ length: 30 }, () => vpcLabels(api, account.headers))
    const restore = api.admin('POST', '/snapshots/old/restore')
    const more = Array.from({ length: 30 }, () => vpcLabels(api, account.headers))
    assert.equal((await restore).status, 200)
    for (const labels of await Promise.all([...readers, ...more])) {
      assert.ok(
        JSON.stringify(labels) === '["old-1","old-2"]' || JSON.stringify(labels) === '["new-1"]',
        JSON.stringify(labels),
      )
    }
    assert.deepEqual(await vpcLabels(api, account.headers), ['old-1', 'old-2'])
  })

  it('exports to a file and imports on another server, image data included', async () => {
    const account = await newAccount(api, 'exporter')
    const vpc = await createVpc(api, account.headers, 'exported')
    const upload = await api.request({
      method: 'POST',
      url: '/v4/images/upload',
      headers: account.headers,
      payload: { label: 'with-data', region: 'us-east' },
    })
    const imageId = Number(String(upload.body.image.id).split('/')[1])
    const key = `images/${imageId}.img.gz`
    await api.db.updateTable('images').set({ blob_key: key }).where('id', '=', imageId).execute()
    await api.blobs.put(key, Readable.from([Buffer.from('image bytes')]))
    assert.equal((await api.admin('POST', '/snapshots', { name: 'to-ship' })).status, 200)

    const file = await api.app.inject({
      method: 'GET',
      url: '/_cloudplane/snapshots/to-ship/export',
      headers: adminHeaders,
    })
    assert.equal(file.statusCode, 200)
    assert.equal(file.headers['content-type'], 'application/gzip')

    const imported = await elsewhere.request({
      method: 'PUT',
      url: '/_cloudplane/snapshots/shipped',
      headers: { ...adminHeaders, 'content-type': 'application/octet-stream' },
      payload: file.rawPayload,
    })
    assert.equal(imported.status, 200, JSON.stringify(imported.body))
    assert.equal((await elsewhere.admin('POST', '/snapshots/shipped/restore')).status, 200)
    const there = await elsewhere.request({
      method: 'GET',
      url: `/v4/vpcs/${vpc.id}`,
      headers: account.headers,
    })
    assert.equal(there.status, 200, 'the same token works there')
    assert.deepEqual(there.body, vpc)
    const data = await elsewhere.blobs.get(key)
    assert.ok(data, 'the image data came along')
    assert.equal((await buffer(data)).toString(), 'image bytes')

    const garbage = await elsewhere.request({
      method: 'PUT',
      url: '/_cloudplane/snapshots/garbage',
      headers: { ...adminHeaders, 'content-type': 'application/octet-stream' },
      payload: Buffer.from('not a snapshot'),
    })
    assert.equal(garbage.status, 400)
    // A file whose tables or columns this server does not have would fail at its restore.
    const foreignFiles: Array<[Record<string, Record<string, unknown>[]>, string]> = [
      [{ vpcs: [{ no_such_column: 1 }] }, 'holds a column this server does not have: vpcs.no_such_column'],
      [{ no_such_table: [] }, 'holds a table this server does not have: no_such_table'],
    ]
    for (const [tables, reason] of foreignFiles) {
      const foreign = await elsewhere.request({
        method: 'PUT',
        url: '/_cloudplane/snapshots/foreign',
        headers: { ...adminHeaders, 'content-type': 'application/octet-stream' },
        payload: encodeState({ format: 'cloudplane-state', version: 1, engine: 'sqlite', tables }),
      })
      assert.equal(foreign.status, 400)
      assert.deepEqual(foreign.body, { errors: [{ reason, field: 'body' }] })
    }
  })
})

describe('state dump and two-factor codes', () => {
  const api = useControlApp()

  it("dumps one account's state as JSON, and only that account's", async () => {
    const account = await newAccount(api, 'dumped')
    await createVpc(api, account.headers, 'in-dump')
    const other = await newAccount(api, 'not-dumped')
    await createVpc(api, other.headers, 'not-in-dump')
    const dump = await api.admin('GET', '/accounts/dumped/state')
    assert.equal(dump.status, 200)
    assert.deepEqual(
      dump.body.tables.vpcs.map((v: { label: string }) => v.label),
      ['in-dump'],
    )
    assert.deepEqual(
      dump.body.tables.users.map((u: { username: string }) => u.username),
      ['dumped'],
    )
    assert.equal(dump.body.tables.subnets.length, 1)
    assert.equal(dump.body.tables.tokens[0].token_hash, '(redacted)')
  })

  it('returns the current code of a pending two-factor secret, which confirms it', async () => {
    const account = await newAccount(api, 'two-factor')
    const questions = (
      await api.request({ method: 'GET', url: '/v4/profile/security-questions', headers: account.headers })
    ).body
    const answers = questions.security_questions
      .slice(0, 3)
      .map((q: { id: number }) => ({ question_id: q.id, response: 'an answer' }))
    const answered = await api.request({
      method: 'POST',
      url: '/v4/profile/security-questions',
      headers: account.headers,
      payload: { security_questions: answers },
    })
    assert.equal(answered.status, 200, JSON.stringify(answered.body))
    const enable = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable',
      headers: account.headers,
    })
    assert.equal(enable.status, 200)
    await api.admin('POST', '/clock/advance', { by: '5m' })
    const codes = await api.admin('GET', '/users/two-factor/tfa-code')
    assert.equal(codes.status, 200)
    assert.match(codes.body.pending, /^[0-9]{6}$/)
    assert.equal(codes.body.enabled, null)
    const confirm = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable-confirm',
      headers: account.headers,
      payload: { tfa_code: codes.body.pending },
    })
    assert.equal(confirm.status, 200, JSON.stringify(confirm.body))
    const enabled = await api.admin('GET', '/users/two-factor/tfa-code')
    assert.match(enabled.body.enabled, /^[0-9]{6}$/)
  })

  it('a pending two-factor secret expires when the clock passes its 15 minutes', async () => {
    const account = await newAccount(api, 'two-factor-late')
    const questions = (
      await api.request({ method: 'GET', url: '/v4/profile/security-questions', headers: account.headers })
    ).body
    const answers = questions.security_questions
      .slice(0, 3)
      .map((q: { id: number }) => ({ question_id: q.id, response: 'an answer' }))
    await api.request({
      method: 'POST',
      url: '/v4/profile/security-questions',
      headers: account.headers,
      payload: { security_questions: answers },
    })
    assert.equal(
      (await api.request({ method: 'POST', url: '/v4/profile/tfa-enable', headers: account.headers })).status,
      200,
    )
    await api.admin('POST', '/clock/advance', { by: '16m' })
    const codes = await api.admin('GET', '/users/two-factor-late/tfa-code')
    const late = await api.request({
      method: 'POST',
      url: '/v4/profile/tfa-enable-confirm',
      headers: account.headers,
      payload: { tfa_code: codes.body.pending },
    })
    assert.equal(late.status, 400)
    assert.match(late.body.errors[0].reason, /expired/)
  })
})
