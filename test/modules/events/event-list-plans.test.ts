import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CompiledQuery } from 'kysely'
import { fill } from '../../../src/db/prepared.ts'
import { countSlots } from '../../../src/modules/events/event-counts.ts'
import { eventListStatements } from '../../../src/modules/events/events.repository.ts'
import { useTestApp } from '../../helpers/app.ts'

const onSqlite = process.env.CLOUDPLANE_TEST_DIALECT !== 'postgres'

/**
 * The event list's cost must not grow with the account's events: every page walks an index in its
 * order and stops after one page (no sort of the whole account), and every count reads the tallies
 * or an index of the filter, never the whole account. Checked on SQLite's plans, which do not
 * depend on table statistics (it keeps none unless told to).
 */
describe('account events: query plans that stay flat', { skip: !onSqlite && 'SQLite plans' }, () => {
  const api = useTestApp()
  const since = '2026-01-01T00:00:00'
  const valuesOf = (filter: Record<string, unknown> | null) => ({
    account: 1,
    since,
    user: null,
    limit: 25,
    offset: 0,
    ...countSlots(filter === null ? null : JSON.stringify(filter), since),
  })

  const plan = async (compiledSql: CompiledQuery) => {
    const explained = await api.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiledSql.sql}`, [...compiledSql.parameters]),
    )
    return explained.rows.map((r) => r.detail).join(' | ')
  }

  /** Ranges of `id` and `created` (a poller's "since"), alone, together, with kinds, in both orders. */
  const RANGES: Array<Record<string, unknown>> = [
    ...['+gt', '+gte', '+lt', '+lte'].flatMap((op) => [
      { id: { [op]: 500 } },
      { created: { [op]: '2026-02-01T10:11:12' } },
      { id: { [op]: 500 }, '+order_by': 'created', '+order': 'desc' },
      { created: { [op]: '2026-02-01T10:11:12' }, '+order_by': 'created', '+order': 'asc' },
    ]),
    { id: { '+gt': 500 }, '+order_by': 'created', '+order': 'asc' },
    { created: { '+gte': '2026-02-01T10:11:12' }, '+order_by': 'id', '+order': 'asc' },
    { id: { '+gt': 500, '+lte': 90_000 }, created: { '+lt': '2026-03-01T00:00:00' } },
    { id: { '+gt': 500 }, action: 'vpc_create' },
    { id: { '+lt': 500 }, read: false, '+order_by': 'created', '+order': 'desc' },
    { created: { '+gt': '2026-02-01T10:11:12' }, action: 'vpc_create' },
    { created: { '+gt': '2026-02-01T10:11:12' }, read: false, 'entity.type': 'vpc' },
    { created: { '+gt': '2026-02-01T10:11:12' }, '+or': [{ action: 'vpc_create' }, { read: true }] },
  ]

  /** Every filterable field and every order, alone and in the combinations clients send. */
  const FILTERS: Array<Record<string, unknown> | null> = [
    null,
    { action: 'vpc_create' },
    { read: false },
    { 'entity.type': 'vpc' },
    { 'entity.type': 'vpc', 'entity.id': 5 },
    { 'entity.id': 5 },
    { 'entity.id': 'private/5' },
    { id: 5 },
    { created: '2026-02-01T00:00:00' },
    ...['id', 'action', 'created', 'entity.id', 'entity.type', 'read'].flatMap((field) =>
      ['asc', 'desc'].map((order) => ({ '+order_by': field, '+order': order })),
    ),
    { action: 'vpc_create', '+order_by': 'created', '+order': 'desc' },
    { read: false, '+order_by': 'created', '+order': 'asc' },
    { 'entity.type': 'vpc', '+order_by': 'created', '+order': 'desc' },
    { 'entity.type': 'vpc', 'entity.id': 5, action: 'vpc_create', '+order_by': 'created', '+order': 'desc' },
    { '+or': [{ action: 'vpc_create' }, { action: 'vpc_update' }] },
    { action: { '+neq': 'vpc_create' } },
    ...RANGES,
  ]

  const statementsOf = (filter: Record<string, unknown> | null) =>
    eventListStatements(api.db, {
      filter: filter === null ? null : JSON.stringify(filter),
      restricted: false,
    })

  for (const filter of FILTERS) {
    it(`pages and counts without reading the account: ${JSON.stringify(filter)}`, async () => {
      const statements = statementsOf(filter)
      const page = await plan(fill(statements.page, valuesOf(filter)))
      // A walk of blocks of ids (a `created` range in id order) sorts the ids of one block at a time.
      const walks = /SEARCH b USING PRIMARY KEY/.test(page)
      assert.doesNotMatch(page, walks ? /TEMP B-TREE (?!FOR LAST TERM OF ORDER BY)/ : /TEMP B-TREE/, page)
      assert.doesNotMatch(page, /SCAN events/, page)
      const count = await plan(fill(statements.count, valuesOf(filter)))
      assert.doesNotMatch(count, /SCAN events/, count)
      // An index searched on the account alone reads every event of it.
      assert.doesNotMatch(count, /\(account_id=\?\)/, count)
    })
  }

  it('pages a created range in id order over the blocks of ids whose tallies reach into its window', async () => {
    const walked = RANGES.filter((f) => 'created' in f && (f['+order_by'] ?? 'id') === 'id')
    assert.ok(walked.length >= 8)
    for (const filter of walked) {
      const page = await plan(fill(statementsOf(filter).page, valuesOf(filter)))
      // The tallies of blocks, walked in the key's order (one per block: none of a greater kind)…
      assert.match(
        page,
        /SEARCH b USING PRIMARY KEY \(account_id=\? AND scale=\?( AND bucket>\? AND bucket<\?)?\)/,
        page,
      )
      assert.match(
        page,
        /SEARCH d USING PRIMARY KEY \(account_id=\? AND scale=\? AND bucket=\? AND action[>=]\?/,
        page,
      )
      // …the events of each block over an index by id, sorted within the block only…
      assert.match(
        page,
        /SEARCH events USING (COVERING )?INDEX \w+ \(account_id=\? (AND \w+=\? )*AND id>\? AND id<\?\)/,
        page,
      )
      assert.match(page, /USE TEMP B-TREE FOR LAST TERM OF ORDER BY/, page)
      // …and only the page's rows read by their ids, in that order.
      assert.match(page, /SEARCH events USING INTEGER PRIMARY KEY \(rowid=\?\)/, page)
    }
  })

  it('counts every filter on action, entity type and read from the tallies', async () => {
    for (const filter of [
      null,
      { action: 'vpc_create' },
      { read: false },
      { 'entity.type': 'vpc', read: false },
      { '+order_by': 'entity.id', '+order': 'asc' },
      { action: { '+neq': 'vpc_create' } },
    ]) {
      const count = await plan(fill(statementsOf(filter).count, valuesOf(filter)))
      assert.match(count, /SEARCH t USING PRIMARY KEY \(account_id=\? AND day>\? AND day<\?\)/, count)
      assert.match(
        count,
        /SEARCH t USING PRIMARY KEY \(account_id=\? AND scale=\? AND bucket>\? AND bucket<\?\)/,
        count,
      )
      // The partial minutes at the window's ends, counted over an index.
      assert.match(
        count,
        /SEARCH events USING (COVERING )?INDEX \w+ \(account_id=\? (AND \w+=\? )*AND created>\? AND created<\?\)/,
        count,
      )
    }
  })
  it('counts every range of id and created from the tallies, reading events only in bounded ranges', async () => {
    for (const filter of RANGES) {
      const count = await plan(fill(statementsOf(filter).count, valuesOf(filter)))
      assert.match(
        count,
        /SEARCH t USING PRIMARY KEY \(account_id=\? AND (scale=\? AND bucket|day)>\?/,
        count,
      )
      // Events are read only over a range bounded on both sides: a partial block of ids or minute,
      // or one block of ids across the window's edge.
      for (const search of count.split(' | ').filter((step) => /SEARCH (events|e) /.test(step))) {
        assert.match(search, /\b(id|created|rowid)>\? AND \1<\?\)/, `${search}\n${count}`)
      }
    }
  })

  /** The searches of a range of tally blocks in a plan. */
  const tallySearches = (explained: string) =>
    explained.match(/SEARCH t USING PRIMARY KEY \(account_id=\? AND scale=\? AND bucket>\?/g)?.length

  it('counts an id range reading each range of tallies once', async () => {
    for (const filter of RANGES.filter((f) => 'id' in f)) {
      const count = await plan(fill(statementsOf(filter).count, valuesOf(filter)))
      const searches = tallySearches(count)
      // The coarse blocks, the fine blocks at either end, and the fine blocks of a coarse block
      // across the window's edge (searched for such a block only).
      assert.equal(searches, 4, count)
    }
  })

  it('bounds the time of an id range ordered by created in one pass over its tallies', async () => {
    const byCreated = RANGES.filter((f) => 'id' in f && f['+order_by'] === 'created')
    assert.ok(byCreated.length >= 5)
    for (const filter of byCreated) {
      const page = await plan(fill(statementsOf(filter).page, valuesOf(filter)))
      const searches = tallySearches(page)
      // The count's four, and the bounds' coarse blocks and fine blocks at either end, once for
      // both bounds (a pass per bound searched them six times).
      assert.equal(searches, 7, page)
      assert.match(page, /MATERIALIZE range_bounds/, page)
    }
  })
})
