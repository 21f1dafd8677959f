import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CompiledQuery, type SelectQueryBuilder, sql } from 'kysely'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import type { Database } from '../../../src/db/database.ts'
import { fill } from '../../../src/db/prepared.ts'
import { countSlots } from '../../../src/modules/events/event-counts.ts'
import { eventListStatements } from '../../../src/modules/events/events.repository.ts'
import type { NewEventRow } from '../../../src/modules/events/events.table.ts'
import { createAccountWithOwner } from '../../../src/modules/users/users.service.ts'
import { cycledAction, eventRow } from '../../helpers/event-rows.ts'
import { bootstrapHeaders, bootstrapOwner, useControlApp } from '../control/control-app.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'
const MINUTE = 60
/** Ids far above the sequences', aligned to a block of 16,384 (so to blocks of 256 too). */
const BASE = 16_384 * 300_000
const PAGE = 25

/**
 * A `created` range in id order pages over the blocks of 256 ids whose tallies reach into its
 * window (event-page-walk.ts). Its pages must be exactly those of the events themselves while
 * events are added, deleted, read and restored, and times run against ids: here they fall in a
 * sawtooth, so that runs of events inside the range alternate with runs outside it, and another
 * account's events lie between the owner's.
 */
describe('account events: a created range in id order', () => {
  const api = useControlApp()

  const row = (id: number, accountId: number, i: number, now: string): NewEventRow => {
    // Newer as ids grow within each run of 1,000 ids, older again at the next.
    const age = (1000 - (i % 1000)) * MINUTE
    const entityType = i % 4 === 0 ? null : 'vpc'
    return eventRow({ id, accountId, action: cycledAction(i), entityType, created: addSeconds(now, -age) })
  }

  /** Events at `BASE + offset`: the owner's, with every seventh offset the other account's. */
  const insert = async (owner: number, other: number, offsets: number[]) => {
    const now = nowTimestamp(api.clock)
    const rows = offsets.map((o) => row(BASE + o, o % 7 === 0 ? other : owner, o, now))
    for (let i = 0; i < rows.length; i += 200) {
      await api.db
        .insertInto('events')
        .values(rows.slice(i, i + 200))
        .execute()
    }
  }

  type Events = SelectQueryBuilder<Database, 'events', { id: number }>
  const F = false as never
  const T = true as never

  /** The filters, as X-Filter and as conditions on the events, with the page's direction. */
  const cases = (): Array<{
    filter: Record<string, unknown>
    where: (q: Events) => Events
    asc: boolean
  }> => {
    const now = nowTimestamp(api.clock)
    const recent = addSeconds(now, -300 * MINUTE)
    const older = addSeconds(now, -700 * MINUTE)
    const exact = addSeconds(now, -650 * MINUTE)
    return [
      { filter: { created: { '+gt': recent } }, where: (q) => q.where('created', '>', recent), asc: false },
      {
        filter: { created: { '+gte': recent }, '+order_by': 'id', '+order': 'asc' },
        where: (q) => q.where('created', '>=', recent),
        asc: true,
      },
      {
        filter: { created: { '+lt': older }, action: 'vpc_update' },
        where: (q) => q.where('created', '<', older).where('action', '=', 'vpc_update'),
        asc: false,
      },
      {
        filter: { created: { '+gt': older, '+lte': recent }, read: false, 'entity.type': 'vpc' },
        where: (q) =>
          q
            .where('created', '>', older)
            .where('created', '<=', recent)
            .where('read', '=', F)
            .where('entity_type', '=', 'vpc'),
        asc: false,
      },
      {
        filter: { created: { '+gte': older }, id: { '+lt': BASE + 2_500, '+gte': BASE + 300 } },
        where: (q) =>
          q
            .where('created', '>=', older)
            .where('id', '<', BASE + 2_500)
            .where('id', '>=', BASE + 300),
        asc: false,
      },
      {
        // `+order_by` alone: ascending.
        filter: { created: exact, '+or': [{ action: 'vpc_create' }, { read: true }], '+order_by': 'id' },
        where: (q) =>
          q
            .where('created', '=', exact)
            .where((eb) => eb.or([eb('action', '=', 'vpc_create'), eb('read', '=', T)])),
        asc: true,
      },
    ]
  }

  const check = async (owner: number, step: string) => {
    for (const c of cases()) {
      for (const page of [1, 2, 5, 40]) {
        // The retention start moves with the clock: ask again if a second passed meanwhile.
        for (let attempt = 0; ; attempt++) {
          const since = addSeconds(nowTimestamp(api.clock), -90 * 86_400)
          const events = api.db
            .selectFrom('events')
            .select('id')
            .where('account_id', '=', owner)
            .where('created', '>=', since)
            .orderBy('id', c.asc ? 'asc' : 'desc')
          const expected = (await c.where(events).execute()).map((r) => Number(r.id))
          const res = await api.request({
            method: 'GET',
            url: `/v4/account/events?page=${page}&page_size=${PAGE}`,
            headers: { ...bootstrapHeaders, 'x-filter': JSON.stringify(c.filter) },
          })
          assert.equal(res.status, 200, JSON.stringify(res.body))
          const results = expected.length
          const shown = Math.min(page, Math.max(1, Math.ceil(results / PAGE)))
          const ids = expected.slice((shown - 1) * PAGE, shown * PAGE)
          const answered = (res.body.data as Array<{ id: number }>).map((e) => e.id)
          const same = res.body.results === results && JSON.stringify(answered) === JSON.stringify(ids)
          if (!same && attempt < 3) continue
          assert.deepEqual(
            { results: res.body.results, page: res.body.page, ids: answered },
            { results, page: shown, ids },
            `${step}: ${JSON.stringify(c.filter)} page ${page}`,
          )
          break
        }
      }
    }
  }

  it('pages exactly as the events after inserts, deletes, reads and a snapshot restore', async () => {
    const { accountId: owner } = await bootstrapOwner(api)
    const { user: stranger } = await createAccountWithOwner(api.db, api.clock, {
      username: 'walk-stranger',
      email: 'walk-stranger@example.com',
    })
    await insert(
      owner,
      stranger.account_id,
      Array.from({ length: 3_000 }, (_, i) => i),
    )
    await check(owner, 'inserted')

    // Whole blocks and parts of blocks gone, the newest events included.
    await api.db
      .deleteFrom('events')
      .where((eb) =>
        eb.or([
          eb.and([eb('id', '>=', BASE + 2_048), eb('id', '<', BASE + 2_304)]),
          eb.and([eb('id', '>=', BASE + 2_900), sql<boolean>`id % 2 = 0`]),
          eb.and([eb('id', '>=', BASE + 700), eb('id', '<', BASE + 1_200), sql<boolean>`id % 3 = 0`]),
        ]),
      )
      .execute()
    await check(owner, 'deleted')

    for (const offset of [2_001, 2_002, 2_003, 1_990, 999, 5]) {
      const read = await api.request({
        method: 'POST',
        url: `/v4/account/events/${BASE + offset}/read`,
        headers: bootstrapHeaders,
      })
      assert.ok([200, 404].includes(read.status), JSON.stringify(read.body))
    }
    await check(owner, 'read')

    const saved = await api.admin('POST', '/snapshots', { name: 'walk' })
    assert.equal(saved.status, 200, JSON.stringify(saved.body))
    await api.db
      .deleteFrom('events')
      .where('id', '<', BASE + 1_000)
      .execute()
    await check(owner, 'changed after the snapshot')
    const restored = await api.admin('POST', '/snapshots/walk/restore')
    assert.equal(restored.status, 200, JSON.stringify(restored.body))
    await check(owner, 'snapshot restored')
  })

  it('reads the events of walked blocks only, by id (PostgreSQL plans)', {
    skip: !onPostgres && 'PostgreSQL plans (SQLite: event-list-plans.test.ts)',
  }, async () => {
    const since = addSeconds(nowTimestamp(api.clock), -90 * 86_400)
    for (const c of cases()) {
      const filter = JSON.stringify(c.filter)
      const statement = fill(eventListStatements(api.db, { filter, restricted: false }).page, {
        account: 1,
        since,
        user: null,
        limit: PAGE,
        offset: 0,
        ...countSlots(filter, since),
      })
      const params = statement.parameters.map((p) =>
        typeof p === 'number' ? String(p) : `'${String(p).replaceAll("'", "''")}'`,
      )
      // The server runs it as a named statement: its generic plan, and the plan for these values.
      for (const mode of ['force_generic_plan', 'force_custom_plan']) {
        const plan = await api.db.connection().execute(async (db) => {
          await db.executeQuery(CompiledQuery.raw(`set plan_cache_mode = ${mode}`))
          await db.executeQuery(CompiledQuery.raw('deallocate all'))
          await db.executeQuery(CompiledQuery.raw(`prepare walk_page as ${statement.sql}`))
          const explained = await db.executeQuery<{ 'QUERY PLAN': string }>(
            CompiledQuery.raw(`explain (costs off) execute walk_page(${params.join(', ')})`),
          )
          await db.executeQuery(CompiledQuery.raw('deallocate walk_page'))
          await db.executeQuery(CompiledQuery.raw('reset plan_cache_mode'))
          return explained.rows.map((r) => r['QUERY PLAN']).join('\n')
        })
        const where = `${mode}: ${filter}\n${plan}`
        // Blocks from their tallies in the key's order; one per block: none of a greater kind in it,
        // looked for in that block alone…
        assert.match(
          plan,
          /Index Scan( Backward)? using event_range_tallies_pkey on event_range_tallies b\n/,
          where,
        )
        assert.match(
          plan,
          /SubPlan \d+\n[^\n]* on event_range_tallies d\n[^\n]*\bbucket = b\.bucket\b/,
          where,
        )
        // …the events of each block searched by its ids…
        assert.match(
          plan,
          /(Index (Only )?Scan using \w+ on events( events_\d+)?|Bitmap Index Scan on \w+)\n\s+Index Cond: [^\n]*\(id >= \(b\.bucket \* 256\)\) AND \(id < \(\(b\.bucket \* 256\) \+ 256\)\)/,
          where,
        )
        // …their ids sorted for the page in the blocks' order (a sort that PostgreSQL makes
        // incremental, block by block, once its statistics show blocks of many events)…
        assert.match(
          plan,
          /Limit\n\s+-> {2}(Incremental )?Sort\n\s+Sort Key: b\.bucket( DESC)?, events\.id/,
          where,
        )
        // …and only the page's rows read again, by id, in that order.
        assert.match(plan, /Index Scan using events_pkey on events events_\d+\n\s+Index Cond: \(id = /, where)
        assert.doesNotMatch(plan, /Seq Scan on events|Hash|Sort Key: w\./, where)
      }
    }
  })
})
