import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { createInstance } from '../../../helpers/api-fixtures.ts'
import { useTestApp } from '../../../helpers/app.ts'
import {
  createAccount,
  createUser,
  grantEntity,
  grantGlobal,
  type TestUser,
} from '../../../helpers/factories.ts'
import { testVocabulary, wireImageId, wirePath } from '../../../helpers/naming.ts'
import { createScript, SCRIPTS } from './script-fixtures.ts'

describe('scripts', () => {
  const api = useTestApp()

  const list = (who: TestUser | undefined, query = '', filter?: object) =>
    api.request({
      method: 'GET',
      url: `${SCRIPTS}${query}`,
      headers: { ...who?.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
    })
  const entityType = testVocabulary().toWire('entityType', 'script')

  it('lists the public catalogue without a token, with the fields parsed from UDF tags', async () => {
    const res = await list(undefined)
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 6)
    const docker = res.body.data.find((s: { label: string }) => s.label === 'Docker')
    assert.deepEqual(Object.keys(docker), [
      'id',
      'username',
      'user_gravatar_id',
      'label',
      'description',
      'ordinal',
      'logo_url',
      'images',
      'deployments_total',
      'deployments_active',
      'is_public',
      'mine',
      'created',
      'updated',
      'rev_note',
      'script',
      'user_defined_fields',
    ])
    assert.equal(docker.is_public, true)
    assert.equal(docker.mine, false)
    assert.ok(docker.images.includes(wireImageId('compute/debian12')))
    assert.deepEqual(docker.user_defined_fields, [
      { label: 'A limited sudo user to create', name: 'username', example: 'admin' },
      { label: 'Install the Compose plugin', name: 'compose', oneof: 'yes,no', default: 'yes' },
    ])
  })

  it('creates a private script, reads it, changes it and deletes it, with stackscript_* events', async () => {
    const owner = await createAccount(api)
    const script = await createScript(api, owner, { description: 'db', rev_note: 'first' })
    assert.equal(script.username, owner.user.username)
    assert.match(script.user_gravatar_id, /^[0-9a-f]{32}$/)
    assert.equal(script.is_public, false)
    assert.equal(script.mine, true)
    assert.equal(script.deployments_total, 0)
    assert.deepEqual(
      script.user_defined_fields.map((f) => f.name),
      ['db_password', 'size', 'extras'],
    )
    const url = `${SCRIPTS}/${script.id}`
    assert.deepEqual((await api.request({ method: 'GET', url, headers: owner.headers })).body, script)
    const changed = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { label: 'set up v2', script: '#!/bin/sh\necho hi\n', rev_note: 'second' },
    })
    assert.equal(changed.status, 200, JSON.stringify(changed.body))
    assert.equal(changed.body.label, 'set up v2')
    assert.deepEqual(changed.body.user_defined_fields, [])
    assert.equal(changed.body.rev_note, 'second')
    assert.equal(changed.body.description, 'db', 'fields not sent are kept')
    const deleted = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.deepEqual(deleted.body, {})
    assert.equal((await api.request({ method: 'GET', url, headers: owner.headers })).status, 404)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: {
        ...owner.headers,
        'x-filter': JSON.stringify({ 'entity.id': script.id, 'entity.type': entityType }),
      },
    })
    assert.deepEqual(
      events.body.data.map((e: { action: string }) => e.action),
      ['stackscript_delete', 'stackscript_update', 'stackscript_create'],
    )
    assert.equal(events.body.data[2].entity.url, `${SCRIPTS}/${script.id}`)
  })

  it('makes a script public but never private again, and keeps a public one from deletion', async () => {
    const owner = await createAccount(api)
    const script = await createScript(api, owner)
    const url = `${SCRIPTS}/${script.id}`
    const published = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { is_public: true },
    })
    assert.equal(published.body.is_public, true)
    const back = await api.request({
      method: 'PUT',
      url,
      headers: owner.headers,
      payload: { is_public: false },
    })
    assert.equal(back.status, 400)
    assert.deepEqual(back.body.errors, [
      { reason: testVocabulary().reason('Public Scripts cannot be made private'), field: 'is_public' },
    ])
    const gone = await api.request({ method: 'DELETE', url, headers: owner.headers })
    assert.equal(gone.status, 400)
    const events = await api.request({
      method: 'GET',
      url: '/v4/account/events',
      headers: { ...owner.headers, 'x-filter': JSON.stringify({ action: 'stackscript_publicize' }) },
    })
    assert.equal(events.body.results, 1)

    const stranger = await createAccount(api)
    const seen = await api.request({ method: 'GET', url, headers: stranger.headers })
    assert.equal(seen.status, 200)
    assert.equal(seen.body.mine, false)
    const change = await api.request({
      method: 'PUT',
      url,
      headers: stranger.headers,
      payload: { label: 'mine now' },
    })
    assert.equal(change.status, 403)
  })

  it("lists the account's own scripts with the public ones, with X-Filter and paging", async () => {
    const owner = await createAccount(api)
    for (let i = 0; i < 21; i++)
      await createScript(api, owner, { label: `own-${String(i).padStart(2, '0')}` })
    const stranger = await createAccount(api)
    await createScript(api, stranger, { label: 'hidden-private' })

    // Other tests of this file may have published scripts: every account sees those too.
    const publicCount = (await list(undefined, '', { is_public: true })).body.results
    const total = publicCount + 21
    const first = await list(owner, '?page_size=25')
    assert.deepEqual([first.body.page, first.body.pages, first.body.results], [1, 2, total])
    const second = await list(owner, '?page=2&page_size=25')
    assert.equal(second.body.data.length, total - 25)
    const mine = await list(owner, '', { is_public: false })
    assert.equal(mine.body.results, 21)
    assert.ok(mine.body.data.every((s: { mine: boolean }) => s.mine))
    const own = await list(owner, '?page_size=25', { mine: true, '+order_by': 'label' })
    assert.equal(own.body.results, 21)
    assert.equal(own.body.data[0].label, 'own-00')
    assert.equal((await list(owner, '', { mine: false })).body.results, publicCount)
    const notBoolean = await list(owner, '', { mine: 'yes' })
    assert.deepEqual(notBoolean.body.errors, [{ reason: 'mine must be true or false', field: 'X-Filter' }])
    const byLabel = await list(owner, '', { label: 'own-07' })
    assert.deepEqual(
      byLabel.body.data.map((s: { label: string }) => s.label),
      ['own-07'],
    )
    const ordered = await list(owner, '', { '+order_by': 'deployments_total', '+order': 'desc' })
    assert.equal(ordered.body.data[0].label, 'Docker')
    assert.equal((await list(owner, '', { label: 'hidden-private' })).body.results, 0)
    const bad = await list(owner, '', { script: 'x' })
    assert.deepEqual(bad.body.errors, [{ reason: 'Cannot filter on script', field: 'X-Filter' }])
  })

  it('shows a restricted user only the granted private scripts, and lets add_scripts create', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createScript(api, owner, { label: 'granted' })
    const other = await createScript(api, owner, { label: 'not granted' })
    await grantEntity(api, member, 'script', granted.id, 'read_only')
    const res = await list(member, '', { is_public: false })
    assert.deepEqual(
      res.body.data.map((s: { id: number }) => s.id),
      [granted.id],
    )
    const hidden = await api.request({
      method: 'GET',
      url: `${SCRIPTS}/${other.id}`,
      headers: member.headers,
    })
    assert.equal(hidden.status, 403)
    await grantGlobal(api, member, 'add_scripts')
    const own = await createScript(api, member, { label: 'by member' })
    const grants = await api.request({ method: 'GET', url: '/v4/profile/grants', headers: member.headers })
    const key = testVocabulary().keys('grants').rename.script ?? 'script'
    assert.deepEqual(
      grants.body[key].map((g: { id: number; permissions: string }) => [g.id, g.permissions]),
      [
        [granted.id, 'read_only'],
        [own.id, 'read_write'],
      ],
    )
  })

  it('deploys an instance with a script: the values checked, the script recorded and counted', async () => {
    const owner = await createAccount(api)
    const script = await createScript(api, owner)
    const instance = await createInstance(api, owner, {
      stackscript_id: script.id,
      stackscript_data: { db_password: 'pw', size: 'large', extras: 'git,vim' },
    })
    assert.equal(instance.status, 'running')
    const url = `${SCRIPTS}/${script.id}`
    const counted = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.deepEqual([counted.body.deployments_total, counted.body.deployments_active], [1, 1])
    const row = await api.db
      .selectFrom('compute_instances')
      .select('stackscript_id')
      .where('id', '=', instance.id)
      .executeTakeFirstOrThrow()
    assert.equal(Number(row.stackscript_id), script.id)
    await api.request({
      method: 'DELETE',
      url: wirePath(`/v4/compute/instances/${instance.id}`),
      headers: owner.headers,
    })
    const after = await api.request({ method: 'GET', url, headers: owner.headers })
    assert.deepEqual([after.body.deployments_total, after.body.deployments_active], [1, 0])
  })

  it('deploys a public catalogue script that takes any image', async () => {
    const owner = await createAccount(api)
    const nginx = (await list(owner, '', { label: 'NGINX' })).body.data[0]
    const instance = await createInstance(api, owner, {
      image: wireImageId('compute/fedora39'),
      stackscript_id: nginx.id,
      stackscript_data: { tls: 'yes' },
    })
    assert.equal(instance.status, 'running')
  })
})
