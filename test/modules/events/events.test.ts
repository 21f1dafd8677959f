import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import { type NewEvent, recordEvents } from '../../../src/modules/events/events.repository.ts'
import { type TestApp, useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../../helpers/factories.ts'
import { securitySuite } from '../../helpers/security-suite.ts'
import { EVENT_KEYS } from '../../helpers/wire-keys.ts'

/** An event of `user`'s own profile, on no granted entity. */
function profileEvent(owner: TestUser, user: TestUser, created: string): NewEvent {
  return {
    accountId: owner.accountId,
    user: { id: user.user.id, username: user.user.username },
    action: 'profile_update',
    entity: { type: 'profile', id: null, label: user.user.username, url: '/v4/profile' },
    grant: null,
    created,
  }
}

function vpcEvent(owner: TestUser, action: string, vpcId: number, created: string): NewEvent {
  return {
    accountId: owner.accountId,
    user: { id: owner.user.id, username: owner.user.username },
    action,
    entity: { type: 'vpc', id: vpcId, label: `vpc-${vpcId}`, url: `/v4/vpcs/${vpcId}` },
    grant: { type: 'vpc', id: vpcId },
    created,
  }
}

describe('account events', () => {
  const api = useTestApp()

  const list = (owner: TestUser, filter?: unknown, query = '') =>
    api.request({
      method: 'GET',
      url: `/v4/account/events${query}`,
      headers: { ...owner.headers, ...(filter !== undefined && { 'x-filter': JSON.stringify(filter) }) },
    })

  it('lists events newest first in the recorded shape and key order', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    await recordEvents(api.db, [
      vpcEvent(owner, 'vpc_create', 11, addSeconds(now, -20)),
      {
        ...vpcEvent(owner, 'subnet_create', 11, addSeconds(now, -10)),
        entity: { type: 'subnet', id: 21, label: 'subnet-a', url: '/v4/vpcs/11/subnets/21' },
        secondary: { type: 'vpc', id: 11, label: 'vpc-11', url: '/v4/vpcs/11' },
      },
    ])
    const res = await list(owner)
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 2)
    const [newest, oldest] = res.body.data
    assert.deepEqual(Object.keys(newest), EVENT_KEYS)
    assert.deepEqual(Object.keys(newest.entity), ['label', 'id', 'type', 'url'])
    assert.deepEqual(Object.keys(newest.secondary_entity), ['id', 'type', 'label', 'url'])
    assert.equal(newest.action, 'subnet_create')
    assert.deepEqual(newest.secondary_entity, { id: 11, type: 'vpc', label: 'vpc-11', url: '/v4/vpcs/11' })
    assert.equal(newest.status, 'notification')
    assert.equal(newest.seen, false)
    assert.equal(newest.read, false)
    assert.equal(newest.username, owner.user.username)
    assert.match(newest.created, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/)
    assert.equal(oldest.action, 'vpc_create')
    assert.equal(oldest.secondary_entity, null)
  })

  it('filters on id, action, created, entity.id, entity.type and read, and orders', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    await recordEvents(
      api.db,
      Array.from({ length: 30 }, (_, i) =>
        vpcEvent(owner, i % 3 === 0 ? 'vpc_delete' : 'vpc_update', 100 + (i % 5), addSeconds(now, i - 100)),
      ),
    )
    const deletes = await list(owner, { action: 'vpc_delete' })
    assert.equal(deletes.body.results, 10)
    const one = await list(owner, { 'entity.id': 102, 'entity.type': 'vpc' })
    assert.equal(one.body.results, 6)
    const since = await list(owner, { created: { '+gte': addSeconds(now, -80) } })
    assert.equal(since.body.results, 10)
    const ordered = await list(owner, {
      '+order_by': 'created',
      '+order': 'asc',
      action: { '+neq': 'vpc_delete' },
    })
    const times = ordered.body.data.map((e: { created: string }) => e.created)
    assert.deepEqual(times, [...times].sort())
    assert.equal(ordered.body.results, 20)
    const either = await list(owner, { '+or': [{ 'entity.id': 100 }, { 'entity.id': { '+gte': 104 } }] })
    assert.equal(either.body.results, 12)
    const unread = await list(owner, { read: false })
    assert.equal(unread.body.results, 30)
    const firstId = deletes.body.data.at(-1).id
    const byId = await list(owner, { id: { '+lte': firstId } })
    assert.equal(byId.body.results, 1)
  })

  it('entity.id "private/<n>" names an image, not another kind of entity with that number', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    await recordEvents(api.db, [
      vpcEvent(owner, 'vpc_create', 155, now),
      {
        ...vpcEvent(owner, 'image_upload', 155, now),
        entity: { type: 'image', id: 155, label: 'img', url: '/v4/images/private/155' },
      },
    ])
    const image = await list(owner, { 'entity.id': 'private/155' })
    assert.deepEqual(
      image.body.data.map((e: { action: string; entity: { id: unknown } }) => [e.action, e.entity.id]),
      [['image_upload', 'private/155']],
    )
    const not = await list(owner, { 'entity.id': { '+neq': 'private/155' } })
    assert.deepEqual(
      not.body.data.map((e: { action: string }) => e.action),
      ['vpc_create'],
    )
    const both = await list(owner, { 'entity.id': 155 })
    assert.equal(both.body.results, 2)
    const huge = await list(owner, { id: { '+gt': 99_999_999_999 } })
    assert.equal(huge.status, 200)
    assert.equal(huge.body.results, 0)
  })

  it('refuses filters on fields that are not filterable, and malformed filters', async () => {
    const owner = await createAccount(api)
    const cases: Array<[string, string]> = [
      ['{"username":"x"}', 'Cannot filter on username'],
      ['{"seen":true}', 'Cannot filter on seen'],
      ['{"status":"finished"}', 'Cannot filter on status'],
      ['{"+order_by":"username"}', 'Cannot filter on username'],
      ['not json', 'X-Filter must be valid JSON'],
      ['[1,2]', 'X-Filter must be a JSON object'],
      ['{"+and":{}}', '+and must be a non-empty array of filters'],
      ['{"id":"seven"}', 'id must be an integer'],
      ['{"created":"yesterday"}', 'created must be a date-time (YYYY-MM-DDTHH:MM:SS)'],
      ['{"read":"true"}', 'read must be true or false'],
      ['{"id":{"+like":3}}', 'Unknown operator +like'],
      ['{"+order":"sideways","+order_by":"id"}', '+order must be "asc" or "desc"'],
    ]
    for (const [filter, reason] of cases) {
      const res = await api.request({
        method: 'GET',
        url: '/v4/account/events',
        headers: { ...owner.headers, 'x-filter': filter },
      })
      assert.equal(res.status, 400, filter)
      assert.deepEqual(res.body, { errors: [{ reason, field: 'X-Filter' }] }, filter)
    }
  })

  it('pages with exact pages and results', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    await recordEvents(
      api.db,
      Array.from({ length: 60 }, (_, i) => vpcEvent(owner, 'vpc_update', i + 1, addSeconds(now, -i))),
    )
    const first = await list(owner, undefined, '?page_size=25')
    assert.equal(first.body.pages, 3)
    assert.equal(first.body.results, 60)
    const last = await list(owner, undefined, '?page=3&page_size=25')
    assert.equal(last.body.data.length, 10)
    const clamped = await list(owner, undefined, '?page=9&page_size=25')
    assert.equal(clamped.body.page, 3)
    const ids = [
      ...first.body.data,
      ...(await list(owner, undefined, '?page=2&page_size=25')).body.data,
      ...last.body.data,
    ].map((e: { id: number }) => e.id)
    assert.equal(new Set(ids).size, 60, 'pages neither repeat nor skip')
  })

  it('an account without events gets the empty page', async () => {
    const owner = await createAccount(api)
    const res = await list(owner, undefined, '?page=3')
    assert.deepEqual(res.body, { data: [], page: 1, pages: 1, results: 0 })
  })

  it('only shows the last 90 days', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    await recordEvents(api.db, [
      vpcEvent(owner, 'vpc_create', 1, addSeconds(now, -91 * 86400)),
      vpcEvent(owner, 'vpc_update', 1, addSeconds(now, -89 * 86400)),
    ])
    const res = await list(owner)
    assert.deepEqual(
      res.body.data.map((e: { action: string }) => e.action),
      ['vpc_update'],
    )
  })

  it('views one event; another account and unknown ids are 404', async () => {
    const owner = await createAccount(api)
    const stranger = await createAccount(api)
    const [id] = await recordEvents(api.db, [vpcEvent(owner, 'vpc_create', 5, nowTimestamp(api.clock))])
    const res = await api.request({ method: 'GET', url: `/v4/account/events/${id}`, headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.body.id, id)
    for (const headers of [stranger.headers, owner.headers]) {
      const url = headers === owner.headers ? '/v4/account/events/999999999' : `/v4/account/events/${id}`
      const missing = await api.request({ method: 'GET', url, headers })
      assert.equal(missing.status, 404)
    }
  })

  it('marks one event read and every event up to an id seen, without listing changing them', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    const ids = await recordEvents(
      api.db,
      [1, 2, 3].map((n) => vpcEvent(owner, 'vpc_update', n, addSeconds(now, n - 10))),
    )
    await list(owner)
    const read = await api.request({
      method: 'POST',
      url: `/v4/account/events/${ids[0]}/read`,
      headers: owner.headers,
    })
    assert.equal(read.status, 200)
    assert.deepEqual(read.body, {})
    const seen = await api.request({
      method: 'POST',
      url: `/v4/account/events/${ids[1]}/seen`,
      headers: owner.headers,
    })
    assert.equal(seen.status, 200)
    assert.deepEqual(seen.body, {})
    const res = await list(owner, { '+order_by': 'id', '+order': 'asc' })
    assert.deepEqual(
      res.body.data.map((e: { read: boolean; seen: boolean }) => [e.read, e.seen]),
      [
        [true, true],
        [false, true],
        [false, false],
      ],
    )
  })

  it("restricted users see only events of entities they hold a grant on, and their own profile's", async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const now = nowTimestamp(api.clock)
    await recordEvents(api.db, [
      vpcEvent(owner, 'vpc_create', 1, now),
      vpcEvent(owner, 'vpc_create', 2, now),
      profileEvent(owner, member, now),
      profileEvent(owner, owner, now),
    ])
    await grantEntity(api, member, 'vpc', 2, 'read_only')
    const res = await list(member)
    assert.deepEqual(
      res.body.data.map((e: { action: string; entity: { id: number | null } }) => [e.action, e.entity.id]),
      [
        ['profile_update', null],
        ['vpc_create', 2],
      ],
    )
    const all = await list(owner)
    assert.equal(all.body.results, 4)
  })

  it('a restricted user marks an event seen with read_write on its entity; read_only may view and read it', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const now = nowTimestamp(api.clock)
    const [onlyRead, writable, own] = await recordEvents(api.db, [
      vpcEvent(owner, 'vpc_create', 1, now),
      vpcEvent(owner, 'vpc_create', 2, now),
      profileEvent(owner, member, now),
    ])
    await grantEntity(api, member, 'vpc', 1, 'read_only')
    await grantEntity(api, member, 'vpc', 2, 'read_write')
    const post = (id: number | undefined, what: string) =>
      api.request({ method: 'POST', url: `/v4/account/events/${id}/${what}`, headers: member.headers })
    assert.equal((await post(onlyRead, 'read')).status, 200)
    const refused = await post(onlyRead, 'seen')
    assert.equal(refused.status, 403)
    assert.deepEqual(refused.body, { errors: [{ reason: 'Unauthorized' }] })
    const seen = (await list(member)).body.data.map((e: { seen: boolean }) => e.seen)
    assert.deepEqual(seen, [false, false, false])
    assert.equal((await post(writable, 'seen')).status, 200)
    assert.equal((await post(own, 'seen')).status, 200)
    // Marking their own (newer) event seen marked the older one they may write, not the one they
    // only read: the owner sees that one unseen still.
    const byOwner = (await list(owner)).body.data.map((e: { id: number; seen: boolean }) => [e.id, e.seen])
    assert.deepEqual(byOwner, [
      [own, true],
      [writable, true],
      [onlyRead, false],
    ])
  })

  const seeded = async (api: TestApp, owner: TestUser) => {
    const [id] = await recordEvents(api.db, [vpcEvent(owner, 'vpc_create', 9, nowTimestamp(api.clock))])
    return id as number
  }
  securitySuite(api, [
    {
      method: 'GET',
      route: '/v4/account/events',
      scopes: ['events:read_only'],
      success: 200,
      prepare: async () => ({ url: '/v4/account/events' }),
    },
    {
      method: 'GET',
      route: '/v4/account/events/{id}',
      scopes: ['events:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/account/events/${await seeded(api, owner)}` }),
    },
    {
      method: 'POST',
      route: '/v4/account/events/{id}/read',
      scopes: ['events:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/account/events/${await seeded(api, owner)}/read` }),
    },
    {
      method: 'POST',
      route: '/v4/account/events/{id}/seen',
      scopes: ['events:read_only'],
      success: 200,
      restricted: 404,
      crossAccount: true,
      prepare: async (api, owner) => ({ url: `/v4/account/events/${await seeded(api, owner)}/seen` }),
    },
  ])
})
