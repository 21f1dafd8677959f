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
 * `results` of the event list comes from per-day counts kept by triggers for the lists they can
 * answer (all events, one action): it must equal counting the rows, across day boundaries, at
 * the retention start and after deletes.
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
})
