import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import type { Database } from '../../../src/db/database.ts'
import type { NewEventRow } from '../../../src/modules/events/events.table.ts'
import { createAccountWithOwner } from '../../../src/modules/users/users.service.ts'
import { cycledAction, eventRow } from '../../helpers/event-rows.ts'
import { bootstrapHeaders, bootstrapOwner, useControlApp } from '../control/control-app.ts'

const DAY = 86_400
const HOUR = 3_600
/** Ids far above the sequences', aligned to a block of 16,384, so the events span blocks of all sizes. */
const BASE = 16_384 * 200_000

type Events = SelectQueryBuilder<Database, 'events', object>
type Op = '+gt' | '+gte' | '+lt' | '+lte' | '='
const SQL_OP = { '+gt': '>', '+gte': '>=', '+lt': '<', '+lte': '<=', '=': '=' } as const
const OPS: Op[] = ['+gt', '+gte', '+lt', '+lte', '=']

/** A list filter and the same filter on the events table, to count directly. */
interface Case {
  filter: Record<string, unknown>
  where: (q: Events) => Events
}

const on = (field: 'id' | 'created', op: Op, value: number | string): Case => ({
  filter: { [field]: op === '=' ? value : { [op]: value } },
  where: (q) => q.where(field, SQL_OP[op], value as never),
})

const KINDS: Case[] = [
  { filter: { action: 'vpc_update' }, where: (q) => q.where('action', '=', 'vpc_update') },
  { filter: { read: false }, where: (q) => q.where('read', '=', false as never) },
  { filter: { 'entity.type': 'subnet' }, where: (q) => q.where('entity_type', '=', 'subnet') },
  {
    filter: { '+or': [{ action: 'vpc_create' }, { 'entity.type': null }] },
    where: (q) =>
      q.where((eb: ExpressionBuilder<Database, 'events'>) =>
        eb.or([eb('action', '=', 'vpc_create'), eb('entity_type', 'is', null)]),
      ),
  },
]

/** Both conditions; two ranges of one field become one object of operators. */
const both = (a: Case, b: Case): Case => {
  const filter: Record<string, unknown> = { ...a.filter }
  for (const [key, value] of Object.entries(b.filter)) {
    const mine = filter[key]
    const isOps = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v)
    filter[key] = isOps(mine) && isOps(value) ? { ...(mine as object), ...(value as object) } : value
  }
  return { filter, where: (q) => b.where(a.where(q)) }
}

/**
 * `results` of the event list for ranges of `id` and `created` (every operator, alone, together and
 * with filters on the kind of event) comes from tallies by blocks of ids and spans of time: it must
 * equal counting the rows as events are added, deleted and read, the clock moves the retention
 * start, the state is reset and a snapshot restored. The events' times are not in the order of
 * their ids, some lie around the retention start, and they fill blocks of ids densely and sparsely.
 */
describe('account events: `results` for ranges of id and created', () => {
  const api = useControlApp()

  const row = (id: number, accountId: number, i: number, now: string): NewEventRow => {
    const entityType = i % 4 === 0 ? null : i % 4 === 1 ? 'subnet' : 'vpc'
    // Around the retention start, anywhere in 100 days, or within hours of now on the last days.
    const age =
      i % 7 === 0
        ? 90 * DAY + ((i * 37) % (2 * HOUR)) - HOUR
        : i % 7 === 1
          ? (i * 7919) % (100 * DAY)
          : ((i * 13) % (3 * HOUR)) + (i % 3) * DAY
    return eventRow({
      id,
      accountId,
      action: cycledAction(i),
      entityType,
      created: addSeconds(now, -age),
      read: i % 6 === 0,
    })
  }

  /** Inserts events at `BASE + offset`: the owner's, with every fifth offset the other account's. */
  const insert = async (owner: number, other: number, offsets: number[]) => {
    const now = nowTimestamp(api.clock)
    const rows = offsets.map((o) => row(BASE + o, o % 5 === 0 ? other : owner, o, now))
    for (let i = 0; i < rows.length; i += 200) {
      await api.db
        .insertInto('events')
        .values(rows.slice(i, i + 200))
        .execute()
    }
  }

  const results = async (filter: Record<string, unknown>) => {
    const res = await api.request({
      method: 'GET',
      url: '/v4/account/events?page_size=25',
      headers: { ...bootstrapHeaders, 'x-filter': JSON.stringify(filter) },
    })
    assert.equal(res.status, 200, JSON.stringify(res.body))
    return res.body.results as number
  }

  const counted = async (owner: number, where: Case['where']) => {
    const since = addSeconds(nowTimestamp(api.clock), -90 * DAY)
    const query = api.db
      .selectFrom('events')
      .select(sql<number>`count(*)`.as('n'))
      .where('account_id', '=', owner)
      .where('created', '>=', since)
    const found = (await where(query as unknown as Events).executeTakeFirstOrThrow()) as { n: number }
    return Number(found.n)
  }

  /** Every case, as pivots placed on block edges, inside dense and sparse runs and at the retention start. */
  const cases = (): Case[] => {
    const now = nowTimestamp(api.clock)
    const ids = [BASE, BASE + 257, BASE + 3 * 16_384 - 1, BASE + 3 * 16_384, BASE + 41_000, BASE + 699]
    const times = [
      addSeconds(now, -90 * DAY + 5),
      addSeconds(now, -90 * DAY - 100),
      addSeconds(now, -2 * DAY - 1234),
      addSeconds(now, -2 * HOUR - 17),
      addSeconds(now, -59),
    ]
    const alone = [
      ...ids.flatMap((id) => OPS.map((op) => on('id', op, id))),
      ...times.flatMap((time) => OPS.map((op) => on('created', op, time))),
    ]
    const withKinds = KINDS.flatMap((kind) =>
      [
        on('id', '+gt', ids[1] as number),
        on('id', '+lte', ids[3] as number),
        on('created', '+gte', times[2] as string),
        on('created', '+lt', times[3] as string),
      ].map((range) => both(range, kind)),
    )
    const together = [
      both(on('id', '+gte', ids[1] as number), on('created', '+lt', times[3] as string)),
      both(on('id', '+lt', ids[4] as number), on('created', '+gt', times[0] as string)),
      both(
        both(on('id', '+gt', ids[0] as number), on('id', '+lt', ids[4] as number)),
        on('created', '+gte', times[1] as string),
      ),
      both(
        both(on('created', '+gt', times[2] as string), on('created', '+lte', times[4] as string)),
        KINDS[1] as Case,
      ),
      both(
        both(on('id', '+gte', ids[2] as number), on('created', '+gt', times[2] as string)),
        KINDS[0] as Case,
      ),
      {
        ...on('created', '+gt', times[3] as string),
        filter: {
          ...on('created', '+gt', times[3] as string).filter,
          '+order_by': 'created',
          '+order': 'desc',
        },
      },
      {
        ...on('id', '+lt', ids[3] as number),
        filter: { ...on('id', '+lt', ids[3] as number).filter, '+order_by': 'created', '+order': 'asc' },
      },
    ]
    // Not a range: counted over an index, and an `id` range's page ordered by `created` all the same.
    const differs: Case = {
      filter: { created: { '+neq': times[3] } },
      where: (q) => q.where('created', '<>', times[3] as string),
    }
    const others = [
      { ...both(on('id', '+gt', ids[1] as number), differs) },
      {
        ...both(on('id', '+lt', ids[4] as number), differs),
        filter: { ...both(on('id', '+lt', ids[4] as number), differs).filter, '+order_by': 'created' },
      },
    ]
    return [...alone, ...withKinds, ...together, ...others]
  }

  const check = async (owner: number, step: string) => {
    for (const c of cases()) {
      // The retention start moves with the clock: count again if a second passed meanwhile.
      for (let attempt = 0; ; attempt++) {
        const before = await counted(owner, c.where)
        const answered = await results(c.filter)
        if (before !== (await counted(owner, c.where)) && attempt < 3) continue
        assert.equal(answered, before, `${step}: ${JSON.stringify(c.filter)}`)
        break
      }
    }
  }

  it('equals the rows counted after inserts, deletes, reads, clock moves, a snapshot restore and resets', async () => {
    const { username, accountId: owner } = await bootstrapOwner(api)
    const { user: stranger } = await createAccountWithOwner(api.db, api.clock, {
      username: 'range-stranger',
      email: 'range-stranger@example.com',
    })
    const other = stranger.account_id
    const dense = Array.from({ length: 700 }, (_, i) => i)
    const edge = Array.from({ length: 700 }, (_, i) => 3 * 16_384 - 350 + i)
    const sparse = Array.from({ length: 81 }, (_, k) => 1000 + k * 1013)
    await insert(owner, other, [...dense, ...edge, ...sparse])
    assert.ok((await counted(owner, (q) => q)) > 1000)
    await check(owner, 'inserted')

    await api.db
      .deleteFrom('events')
      .where('id', '>=', BASE + 3 * 16_384 - 100)
      .where('id', '<', BASE + 3 * 16_384 + 300)
      .where(sql<boolean>`id % 3 = 0`)
      .execute()
    await check(owner, 'deleted')

    for (const offset of [1, 2, 3, 258, 259, 3 * 16_384 + 1, 41_521]) {
      const read = await api.request({
        method: 'POST',
        url: `/v4/account/events/${BASE + offset}/read`,
        headers: bootstrapHeaders,
      })
      assert.ok([200, 404].includes(read.status), JSON.stringify(read.body))
    }
    await check(owner, 'read')

    const advanced = await api.admin('POST', '/clock/advance', { by: '26h' })
    assert.equal(advanced.status, 200, JSON.stringify(advanced.body))
    await check(owner, 'clock moved')

    const saved = await api.admin('POST', '/snapshots', { name: 'ranges' })
    assert.equal(saved.status, 200, JSON.stringify(saved.body))
    await insert(
      owner,
      other,
      Array.from({ length: 300 }, (_, i) => 2 * 16_384 + i),
    )
    await api.db
      .deleteFrom('events')
      .where('id', '<', BASE + 200)
      .execute()
    await check(owner, 'changed after the snapshot')
    const restored = await api.admin('POST', '/snapshots/ranges/restore')
    assert.equal(restored.status, 200, JSON.stringify(restored.body))
    await check(owner, 'snapshot restored')

    const accountReset = await api.admin('POST', '/reset', { username })
    assert.equal(accountReset.status, 200, JSON.stringify(accountReset.body))
    assert.equal(await results({ id: { '+gt': 0 } }), 0)
    // The owner's events again (the other account's stayed).
    await insert(
      owner,
      other,
      [...dense, ...sparse].filter((o) => o % 5 !== 0),
    )
    await check(owner, 'account reset, events again')

    const reset = await api.admin('POST', '/reset')
    assert.equal(reset.status, 200, JSON.stringify(reset.body))
    assert.equal(await results({ created: { '+gte': '2000-01-01T00:00:00' } }), 0)
    // The other account is gone with the reset.
    await insert(owner, owner, edge)
    await check(owner, 'reset, events again')
  })

  it('counts a range whose ends fall early, midway or late in a minute, in time or by a kind', async () => {
    const { accountId: owner } = await bootstrapOwner(api)
    // A minute five hours ago, and events every few seconds from two minutes before it to two
    // minutes past the hour after it: every minute an end falls in holds events on both sides.
    const now = nowTimestamp(api.clock)
    const minute = Math.floor((Date.parse(`${now}Z`) / 1000 - 5 * HOUR) / 60) * 60
    const at = (second: number) => new Date((minute + second) * 1000).toISOString().slice(0, 19)
    const rows = Array.from({ length: 560 }, (_, i) =>
      eventRow({
        id: BASE + i,
        accountId: owner,
        action: cycledAction(i),
        entityType: i % 4 === 0 ? null : 'vpc',
        created: at(-120 + i * 7),
        read: i % 5 === 0,
      }),
    )
    for (let i = 0; i < rows.length; i += 200) {
      await api.db
        .insertInto('events')
        .values(rows.slice(i, i + 200))
        .execute()
    }
    const cases: Case[] = []
    const seconds = [0, 1, 10, 29, 30, 31, 44, 59]
    for (const second of seconds) {
      for (const op of OPS) cases.push(on('created', op, at(second)), on('created', op, at(HOUR + second)))
    }
    for (const from of seconds) {
      for (const to of [...seconds.filter((s) => s > from), 60 + 17, 60 + 45, HOUR + 12, HOUR + 48]) {
        const range = both(on('created', '+gte', at(from)), on('created', '+lt', at(to)))
        cases.push(range, both(range, KINDS[0] as Case), both(range, KINDS[1] as Case))
      }
    }
    for (const c of cases) {
      assert.equal(await results(c.filter), await counted(owner, c.where), JSON.stringify(c.filter))
    }
  })

  it('counts and lists ranges at the end of year 9999, where a second more leaves the year', async () => {
    const { accountId: owner } = await bootstrapOwner(api)
    await api.db.deleteFrom('events').where('account_id', '=', owner).execute()
    const now = nowTimestamp(api.clock)
    await api.db
      .insertInto('events')
      .values(
        eventRow({
          id: BASE,
          accountId: owner,
          action: 'vpc_create',
          entityType: 'vpc',
          created: addSeconds(now, -HOUR),
        }),
      )
      .execute()
    const last = '9999-12-31T23:59:59'
    const cases = [
      on('created', '+gt', last),
      on('created', '+gte', '9999-12-31T12:00:00'),
      on('created', '+lte', last),
      on('created', '+lt', last),
      on('created', '=', last),
      both(on('id', '+gt', 0), on('created', '+gt', last)),
      both(on('id', '+gt', 0), on('created', '+lte', last)),
      both(on('created', '+gte', now), on('created', '+lt', '9999-12-31T00:30:00')),
    ]
    for (const c of cases) {
      const expected = await counted(owner, c.where)
      assert.equal(await results(c.filter), expected, JSON.stringify(c.filter))
      for (const order of ['created', 'id']) {
        const res = await api.request({
          method: 'GET',
          url: '/v4/account/events',
          headers: { ...bootstrapHeaders, 'x-filter': JSON.stringify({ ...c.filter, '+order_by': order }) },
        })
        assert.equal(res.status, 200, JSON.stringify(res.body))
        assert.equal(res.body.data.length, expected, JSON.stringify(c.filter))
      }
    }
  })
})
