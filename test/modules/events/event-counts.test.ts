import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import { inTransaction } from '../../../src/db/transaction.ts'
import { captureState, restoreState } from '../../../src/modules/control/state-capture.ts'
import { type NewEvent, recordEvents } from '../../../src/modules/events/events.repository.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'

const DAY = 24 * 3600

/**
 * `results` of the event list comes from tallies kept by triggers (per account, day, action, entity
 * type and `read`) for every filter on those fields: it must equal counting the rows, across day
 * boundaries, at the retention start, after events are read and after deletes.
 */
describe('account events: the count behind `results`', () => {
  const api = useTestApp()

  const event = (owner: TestUser, action: string, created: string): NewEvent => ({
    accountId: owner.accountId,
    user: { id: owner.user.id, username: owner.user.username },
    action,
    entity: { type: 'vpc', id: 1, label: 'vpc-1', url: '/v4/vpcs/1' },
    grant: { type: 'vpc', id: 1 },
    created,
  })

  const results = async (owner: TestUser, filter?: unknown) => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/account/events?page_size=25',
      headers: { ...owner.headers, ...(filter !== undefined && { 'x-filter': JSON.stringify(filter) }) },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body.results as number
  }

  const counted = async (owner: TestUser, action?: string) => {
    const since = addSeconds(nowTimestamp(api.clock), -90 * DAY)
    let query = api.db
      .selectFrom('events')
      .select(sql<number>`count(*)`.as('n'))
      .where('account_id', '=', owner.accountId)
      .where('created', '>=', since)
    if (action !== undefined) query = query.where('action', '=', action)
    return Number((await query.executeTakeFirstOrThrow()).n)
  }

  it('equals the rows counted, for all events and for one action, as days and retention pass', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const now = nowTimestamp(api.clock)
    const events: NewEvent[] = []
    // Over 100 days, so some fall before the retention start and some on its very day.
    for (let age = 0; age < 100 * DAY; age += 7 * 3600 + 13) {
      const created = addSeconds(now, -age)
      events.push(event(owner, age % 2 === 0 ? 'vpc_create' : 'vpc_update', created))
      events.push(event(other, 'vpc_create', created))
    }
    await recordEvents(api.db, events)

    const check = async () => {
      assert.equal(await results(owner), await counted(owner))
      assert.equal(await results(owner, { action: 'vpc_create' }), await counted(owner, 'vpc_create'))
      assert.equal(
        await results(owner, { action: 'vpc_update', '+order_by': 'created', '+order': 'asc' }),
        await counted(owner, 'vpc_update'),
      )
      assert.equal(await results(owner, { action: 'nothing_like_it' }), 0)
    }
    await check()
    assert.ok((await counted(owner)) > 200)

    // The retention start moves across days; events leave the window.
    api.clock.advance(3 * DAY * 1000 + 5000)
    await check()

    // Deleted events leave the count.
    await api.db
      .deleteFrom('events')
      .where('account_id', '=', owner.accountId)
      .where('created', '>=', addSeconds(now, -5 * DAY))
      .execute()
    await check()
  })

  it('stays right when the whole state is restored (a large events table is re-created)', async () => {
    const owner = await createAccount(api)
    const now = nowTimestamp(api.clock)
    await recordEvents(api.db, [event(owner, 'vpc_create', now)])
    const saved = await captureState(api.db)
    const many = Array.from({ length: 1500 }, (_, i) => event(owner, 'vpc_update', addSeconds(now, -i * 60)))
    for (let i = 0; i < many.length; i += 100) await recordEvents(api.db, many.slice(i, i + 100))
    assert.equal(await results(owner), await counted(owner))
    await inTransaction(api.db, (trx) => restoreState(trx, saved))
    assert.equal(await counted(owner), 1)
    assert.equal(await results(owner), 1)
    assert.equal(await results(owner, { action: 'vpc_update' }), 0)
  })

  /** Every filter the tallies answer, with the same filter written as SQL on the events. */
  const TALLIED: Array<{ filter: Record<string, unknown>; where: string }> = [
    { filter: { read: false }, where: 'read = false' },
    { filter: { read: true, '+order_by': 'created', '+order': 'asc' }, where: 'read = true' },
    { filter: { 'entity.type': 'subnet' }, where: "entity_type = 'subnet'" },
    { filter: { 'entity.type': { '+neq': 'vpc' } }, where: "entity_type <> 'vpc'" },
    { filter: { action: 'vpc_update', read: false }, where: "action = 'vpc_update' and read = false" },
    { filter: { action: { '+contains': 'update' } }, where: "action like '%update%'" },
    {
      filter: { '+or': [{ 'entity.type': 'subnet' }, { action: 'vpc_create', read: true }] },
      where: "(entity_type = 'subnet' or (action = 'vpc_create' and read = true))",
    },
    { filter: { '+order_by': 'entity.type', '+order': 'desc' }, where: '1 = 1' },
  ]

  it('equals the rows counted for filters on action, entity type and read, as events are read', async () => {
    const owner = await createAccount(api)
    const other = await createAccount(api)
    const now = nowTimestamp(api.clock)
    const events: NewEvent[] = []
    for (let age = 0; age < 95 * DAY; age += 11 * 3600 + 7) {
      const created = addSeconds(now, -age)
      const kind = Math.floor(age / 3600) % 3
      events.push(
        kind === 0
          ? event(owner, 'vpc_create', created)
          : kind === 1
            ? {
                ...event(owner, 'subnet_update', created),
                entity: { type: 'subnet', id: 2, label: 's', url: null },
              }
            : { ...event(owner, 'profile_update', created), entity: null, grant: null },
      )
      events.push(event(other, 'vpc_update', created))
    }
    const ids = await recordEvents(api.db, events)

    const since = () => addSeconds(nowTimestamp(api.clock), -90 * DAY)
    const countedWhere = async (where: string) => {
      const row = await sql<{ n: number }>`select count(*) as n from events
        where account_id = ${owner.accountId} and created >= ${since()} and ${sql.raw(
          api.dialect === 'postgres' ? where : where.replaceAll('false', '0').replaceAll('true', '1'),
        )}`.execute(api.db)
      return Number(row.rows[0]?.n)
    }
    const check = async () => {
      for (const { filter, where } of TALLIED) {
        assert.equal(await results(owner, filter), await countedWhere(where), JSON.stringify(filter))
      }
    }
    await check()

    // Reading events moves them between tallies, through the API as clients do.
    for (const id of ids.filter((_, i) => i % 4 === 0).slice(0, 40)) {
      const res = await api.request({
        method: 'POST',
        url: `/v4/account/events/${id}/read`,
        headers: owner.headers,
      })
      if (res.status === 404) continue // the other account's, or out of the window
      assert.equal(res.status, 200, JSON.stringify(res.body))
    }
    assert.ok((await countedWhere('read = true')) > 5)
    await check()

    api.clock.advance(2 * DAY * 1000 + 1000)
    await api.db
      .deleteFrom('events')
      .where('account_id', '=', owner.accountId)
      .where('entity_type', '=', 'subnet')
      .execute()
    await check()
    assert.equal(await results(owner, { 'entity.type': 'subnet' }), 0)
  })
})
