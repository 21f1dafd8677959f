import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { createVpc } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, createUser, grantEntity, type TestUser } from '../../helpers/factories.ts'
import { bootstrapHeaders, type ControlApp, useControlApp } from '../control/control-app.ts'

/**
 * An event page is kept as sent while none of the account's events changed and none left the
 * 90-day window since it was rendered (common/rendered-page-cache.ts). Whatever changes, the next
 * answer must be the one the database gives now.
 */
type Page = { body: { data: Array<{ id: number; action: string; seen: boolean }>; results: number } }
const actions = (res: Page) => res.body.data.map((e) => e.action)

async function eventPage(
  api: { request: ControlApp['request'] },
  headers: Record<string, string>,
  filter?: object,
  query = '',
) {
  const res = await api.request({
    method: 'GET',
    url: `/v4/account/events${query}`,
    headers: { ...headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
  })
  assert.equal(res.status, 200, JSON.stringify(res.body))
  assert.equal(res.headers['content-type'], 'application/json; charset=utf-8')
  assert.equal(Number(res.headers['content-length']), Buffer.byteLength(res.raw.body))
  return res
}

/** Deletes the user's tokens by SQL; the next events page with their token is refused. */
async function refusedOnceTokensDeleted(
  api: { request: ControlApp['request']; db: ControlApp['db'] },
  who: TestUser,
) {
  await sql`delete from tokens where user_id = ${who.user.id}`.execute(api.db)
  const res = await api.request({ method: 'GET', url: '/v4/account/events', headers: who.headers })
  assert.equal(res.status, 401)
  assert.deepEqual(res.body, { errors: [{ reason: 'Invalid Token' }] })
}

describe('event pages kept as sent', () => {
  const api = useTestApp()
  const list = (who: TestUser, filter?: object, query?: string) => eventPage(api, who.headers, filter, query)

  it('answers the same bytes again, and each new event and each mark at once', async () => {
    const owner = await createAccount(api)
    const empty = await list(owner)
    assert.equal((await list(owner)).raw.body, empty.raw.body)
    const vpc = await createVpc(api, owner, { label: 'one' })
    const created = await list(owner)
    assert.deepEqual(actions(created), ['vpc_create'])
    assert.equal((await list(owner)).raw.body, created.raw.body)
    await api.request({
      method: 'PUT',
      url: `/v4/vpcs/${vpc.id}`,
      headers: owner.headers,
      payload: { label: 'two' },
    })
    const updated = await list(owner)
    assert.deepEqual(actions(updated), ['vpc_update', 'vpc_create'])
    const newest = updated.body.data[0]?.id as number
    const seen = await api.request({
      method: 'POST',
      url: `/v4/account/events/${newest}/seen`,
      headers: owner.headers,
    })
    assert.equal(seen.status, 200)
    assert.deepEqual(
      (await list(owner)).body.data.map((e: { seen: boolean }) => e.seen),
      [true, true],
    )
  })

  it('shows a change made by another process or an SQL client on the next request', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner)
    assert.equal((await list(owner)).body.results, 1)
    await sql`update events set read = ${true} where account_id = ${owner.accountId}`.execute(api.db)
    assert.equal((await list(owner, { read: false })).body.results, 0)
    assert.equal((await list(owner, { read: true })).body.results, 1)
    await sql`delete from events where account_id = ${owner.accountId}`.execute(api.db)
    assert.equal((await list(owner)).body.results, 0)
    assert.equal((await list(owner, { read: true })).body.results, 0)
  })

  it('shows the events one statement adds to several accounts, interleaved, in each account’s page', async () => {
    const owners = [await createAccount(api), await createAccount(api)]
    for (const owner of owners) await createVpc(api, owner)
    for (const owner of owners) assert.equal((await list(owner)).body.results, 1)
    const [template] = (
      await sql<
        Record<string, unknown>
      >`select * from events where account_id = ${owners[0]?.accountId}`.execute(api.db)
    ).rows
    const { id: _id, ...row } = template as Record<string, unknown>
    const rows = Array.from({ length: 6 }, (_, i) => ({ ...row, account_id: owners[i % 2]?.accountId }))
    await api.db
      .insertInto('events')
      .values(rows as never)
      .execute()
    for (const owner of owners) assert.equal((await list(owner)).body.results, 4)
  })

  it('keeps each account’s pages, each filter’s and each page’s apart', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const vpc = await createVpc(api, owner)
    await api.request({ method: 'DELETE', url: `/v4/vpcs/${vpc.id}`, headers: owner.headers })
    assert.deepEqual(actions(await list(owner)), ['vpc_delete', 'vpc_create'])
    assert.deepEqual(actions(await list(other)), [])
    assert.deepEqual(actions(await list(owner, { action: 'vpc_create' })), ['vpc_create'])
    const small = await list(owner, undefined, '?page_size=25')
    assert.deepEqual(actions(small), ['vpc_delete', 'vpc_create'])
    assert.deepEqual(actions(await list(owner)), ['vpc_delete', 'vpc_create'])
  })

  it('gives a restricted user only the events of what is granted to them, after a full page was kept', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createVpc(api, owner, { label: 'granted' })
    await createVpc(api, owner, { label: 'hidden' })
    assert.equal((await list(owner)).body.results, 2)
    assert.equal((await list(member)).body.results, 0)
    await grantEntity(api, member, 'vpc', granted.id, 'read_only')
    const seen = await list(member)
    assert.equal(seen.body.results, 1)
    assert.equal(seen.body.data[0]?.action, 'vpc_create')
    assert.equal((await list(owner)).body.results, 2)
  })

  it('gives a user made restricted by SQL their own view, though their account’s page is kept', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    await createVpc(api, owner)
    assert.equal((await list(member)).body.results, 1)
    await sql`update users set restricted = ${true} where id = ${member.user.id}`.execute(api.db)
    assert.equal((await list(member)).body.results, 0)
  })

  it('answers each of many concurrent callers of several accounts with their own account’s page', async () => {
    const owners = [await createAccount(api), await createAccount(api), await createAccount(api)]
    for (const [i, owner] of owners.entries()) {
      for (let n = 0; n <= i; n++) await createVpc(api, owner)
    }
    const pages = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        list(owners[i % 3] as TestUser, i % 2 === 0 ? undefined : { read: false }),
      ),
    )
    pages.forEach((page, i) => {
      assert.equal(page.body.results, (i % 3) + 1, `request ${i}`)
    })
    await createVpc(api, owners[0] as TestUser)
    const after = await Promise.all(owners.map((owner) => list(owner)))
    assert.deepEqual(
      after.map((page) => page.body.results),
      [2, 2, 3],
    )
  })

  it('refuses a restricted user’s token deleted by SQL on the next page, their page rendered each time', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner)
    const granted = await createVpc(api, owner, { label: 'granted' })
    await grantEntity(api, member, 'vpc', granted.id, 'read_only')
    // Twice: the second is let in on the token cache's remembered lookup.
    assert.equal((await list(member)).body.results, 1)
    assert.equal((await list(member)).body.results, 1)
    await refusedOnceTokensDeleted(api, member)
  })

  it('refuses a revoked token though its account’s page is kept', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner)
    await list(owner)
    await refusedOnceTokensDeleted(api, owner)
  })
})

describe('event pages kept as sent, under the control API', () => {
  const api = useControlApp()
  const list = () => eventPage(api, bootstrapHeaders)
  const createVpcNow = async (label: string) => {
    const res = await api.request({
      method: 'POST',
      url: '/v4/vpcs',
      headers: bootstrapHeaders,
      payload: { label, region: 'us-iad' },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
  }

  // Before the clock moves: a reset puts the clock back to real time, which alone would drop the page.
  it('shows no event of the state before a reset, however many there were', async () => {
    await createVpcNow('before')
    const before = (await list()).body.results
    const [template] = (
      await sql<Record<string, unknown>>`select * from events where action = 'vpc_create'`.execute(api.db)
    ).rows
    assert.ok(template !== undefined)
    const { id: _id, ...row } = template
    // Enough events that the reset re-creates the table instead of deleting its rows (SQLite).
    for (let i = 0; i < 6; i++) {
      await api.db
        .insertInto('events')
        .values(Array.from({ length: 200 }, () => row) as never)
        .execute()
    }
    assert.equal((await list()).body.results, before + 1200)
    assert.equal((await api.admin('POST', '/reset')).status, 200)
    assert.equal((await list()).body.results, 0)
  })

  it('drops an event that leaves the 90-day window, and brings it back when the clock goes back', async () => {
    assert.equal((await api.admin('POST', '/clock/set', { at: '2031-05-01T10:00:00' })).status, 200)
    await createVpcNow('old')
    assert.equal((await api.admin('POST', '/clock/advance', { by: '10d' })).status, 200)
    await createVpcNow('newer')
    assert.equal((await list()).body.results, 2)
    assert.equal((await api.admin('POST', '/clock/advance', { by: '81d' })).status, 200)
    const later = await list()
    assert.equal(later.body.results, 1)
    assert.equal(later.body.data[0]?.action, 'vpc_create')
    assert.equal((await api.admin('POST', '/clock/set', { at: '2031-05-02T00:00:00' })).status, 200)
    assert.equal((await list()).body.results, 2)
  })
})

describe('event pages with CLOUDPLANE_KEPT_PAGES=off', () => {
  const api = useTestApp({ keptPages: false })

  it('renders every page from the database, even after a change no trigger announced', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner)
    const page = () => eventPage(api, owner.headers)
    assert.equal((await page()).body.results, 1)
    // A change the versions do not see: only a page rendered again shows it.
    const triggers = ['insert', 'update', 'delete'].map((e) => `events_versioned_${e}`)
    for (const name of triggers) {
      await sql.raw(`drop trigger ${name}${api.dialect === 'postgres' ? ' on events' : ''}`).execute(api.db)
    }
    await sql`delete from events where account_id = ${owner.accountId}`.execute(api.db)
    assert.equal((await page()).body.results, 0)
    await refusedOnceTokensDeleted(api, owner)
  })

  // Each page's own statement confirms a token the cache remembers (events.service.ts): every
  // change to the credentials must still show on the very next page.
  it('refuses a token deleted by SQL on the next page, which has events', async () => {
    const owner = await createAccount(api)
    await createVpc(api, owner)
    assert.equal((await eventPage(api, owner.headers)).body.results, 1)
    assert.equal((await eventPage(api, owner.headers)).body.results, 1)
    await refusedOnceTokensDeleted(api, owner)
  })

  it('answers a user made restricted, then unrestricted, by SQL with their view on the next page', async () => {
    const owner = await createAccount(api)
    const member = await createUser(api, owner, { restricted: false })
    await createVpc(api, owner)
    assert.equal((await eventPage(api, member.headers)).body.results, 1)
    assert.equal((await eventPage(api, member.headers)).body.results, 1)
    await sql`update users set restricted = ${true} where id = ${member.user.id}`.execute(api.db)
    assert.equal((await eventPage(api, member.headers)).body.results, 0)
    assert.equal((await eventPage(api, member.headers)).body.results, 0)
    await sql`update users set restricted = ${false} where id = ${member.user.id}`.execute(api.db)
    assert.equal((await eventPage(api, member.headers)).body.results, 1)
  })
})
