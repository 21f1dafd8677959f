import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import { postgresPoolOf } from '../../../src/db/connect.ts'
import { fill } from '../../../src/db/prepared.ts'
import { countSlots } from '../../../src/modules/events/event-counts.ts'
import {
  eventListStatements,
  type NewEvent,
  recordEvents,
} from '../../../src/modules/events/events.repository.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

/** `count` events of the owner's, one second apart, the newest (highest id) a second ago. */
async function addEvents(api: ReturnType<typeof useTestApp>, owner: TestUser, count: number) {
  const now = nowTimestamp(api.clock)
  const events: NewEvent[] = Array.from({ length: count }, (_, i) => ({
    accountId: owner.accountId,
    user: { id: owner.user.id, username: owner.user.username },
    action: i % 2 === 0 ? 'vpc_create' : 'vpc_update',
    entity: { type: 'vpc', id: i, label: `vpc-${i}`, url: `/v4/vpcs/${i}` },
    grant: null,
    created: addSeconds(now, i - count),
  }))
  // In statements of a thousand rows: PostgreSQL takes at most 65,535 values in one.
  for (let i = 0; i < count; i += 1000) await recordEvents(api.db, events.slice(i, i + 1000))
}

/**
 * PostgreSQL plans each statement once per connection (src/db/dialects/postgres.ts sets
 * `plan_cache_mode`): by default it would plan every run of an event page once the account is
 * large, its one plan looking costlier than plans for the values (see the comment there).
 */
describe('account events: plans kept as the account grows', () => {
  const api = useTestApp()

  const list = (owner: TestUser, query: string, filter?: unknown) =>
    api.request({
      method: 'GET',
      url: `/v4/account/events${query}`,
      headers: { ...owner.headers, ...(filter !== undefined && { 'x-filter': JSON.stringify(filter) }) },
    })

  it('pages of an account of thousands of events run the plan of their statement (PostgreSQL)', {
    skip: !onPostgres && 'PostgreSQL plan cache',
  }, async () => {
    const owner = await createAccount(api)
    // Enough events that a tenth of them (PostgreSQL's guess for a LIMIT it cannot see) costs far
    // more than a page of 25: by default, each run would be planned for its values.
    await addEvents(api, owner, 8000)
    await sql`analyze events`.execute(api.db)
    const filters = [undefined, { action: 'vpc_update' }]
    for (const filter of filters) {
      // A page each time: a page asked for again is answered as kept, without its statement.
      for (let i = 0; i < 12; i++) {
        const response = await list(owner, `?page_size=25&page=${i + 1}`, filter)
        assert.equal(response.status, 200, JSON.stringify(response.body))
        assert.equal(response.body.data.length, 25)
      }
    }
    // Every pooled connection's named event pages: every run took the statement's one plan.
    const pool = postgresPoolOf(api.db)
    assert.ok(pool)
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()))
    const runs: Array<{ generic: number; custom: number }> = []
    try {
      for (const client of clients) {
        const found = await client.query<{ generic_plans: string; custom_plans: string }>(
          `select generic_plans, custom_plans from pg_prepared_statements
            where name like 'cloudplane_%' and statement like '%json_tail%' and statement like '%limit%'`,
        )
        for (const row of found.rows)
          runs.push({ generic: Number(row.generic_plans), custom: Number(row.custom_plans) })
      }
    } finally {
      for (const client of clients) client.release()
    }
    const ran = runs.reduce((sum, r) => sum + r.generic + r.custom, 0)
    assert.equal(ran, 24, `runs of the event pages on each connection: ${JSON.stringify(runs)}`)
    assert.ok(
      runs.every((r) => r.custom === 0),
      `planned for their values: ${JSON.stringify(runs)}`,
    )
  })
})

/**
 * The statements of a kept event page's validity are planned once per connection too, often while
 * the account, or the whole table, is still empty: the plan made then must stay a walk of one entry.
 */
describe('account events: the oldest event in the window, planned on an empty table', () => {
  const api = useTestApp()

  const list = (owner: TestUser, query: string) =>
    api.request({ method: 'GET', url: `/v4/account/events${query}`, headers: owner.headers })

  it('finds when a kept page expires from one entry of the account, though planned while the table was empty (PostgreSQL)', {
    skip: !onPostgres && 'PostgreSQL plan cache',
  }, async () => {
    // The first page is rendered while this schema's events table is empty: each connection plans
    // the statement that finds the account's oldest event in the window then, and keeps that plan.
    const owner = await createAccount(api)
    assert.equal((await list(owner, '?page_size=25')).status, 200)
    await addEvents(api, owner, 5000)
    const pool = postgresPoolOf(api.db)
    assert.ok(pool)
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()))
    const read: number[] = []
    try {
      for (const client of clients) {
        const found = await client.query<{ name: string }>(
          `select name from pg_prepared_statements where name like 'cloudplane_%' and statement like '%"oldest"%'`,
        )
        for (const { name } of found.rows) {
          const since = addSeconds(nowTimestamp(api.clock), -90 * 86_400)
          const plan = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
            // EXPLAIN takes no parameters: the values as literals.
            `explain (analyze, format json) execute ${name}(${Number(owner.accountId)}, ${client.escapeLiteral(since)})`,
          )
          const top = plan.rows[0]?.['QUERY PLAN'][0]?.Plan
          assert.ok(top)
          read.push(rowsScanned(top))
        }
      }
    } finally {
      for (const client of clients) client.release()
    }
    assert.ok(read.length > 0, 'a connection ran the statement')
    assert.ok(
      read.every((n) => n <= 1),
      `index entries read by each connection's plan: ${JSON.stringify(read)} (the account holds 5,000)`,
    )
  })
})

describe('account events: pages counted from the tallies, planned on an empty table', () => {
  const api = useTestApp()

  it('count the partial minutes of their window on the index of time, however the table grows (PostgreSQL)', {
    skip: !onPostgres && 'PostgreSQL plan cache',
  }, async () => {
    const owner = await createAccount(api)
    const since = addSeconds(nowTimestamp(api.clock), -90 * 86_400)
    const pool = postgresPoolOf(api.db)
    assert.ok(pool)
    const client = await pool.connect()
    const read: Record<string, number> = {}
    try {
      const filters = [null, { action: 'vpc_update' }, { read: false }]
      const statements = filters.map((filter, i) => {
        const text = filter === null ? null : JSON.stringify(filter)
        const values = {
          account: owner.accountId,
          since,
          user: null,
          limit: 25,
          offset: 0,
          ...countSlots(text, since),
        }
        return {
          key: text ?? 'no filter',
          name: `plan_probe_${i}`,
          compiled: fill(eventListStatements(api.db, { filter: text, restricted: false }).page, values),
        }
      })
      // Planned while the account has no events, as a connection plans its statements once.
      for (const { name, compiled } of statements)
        await client.query({ name, text: compiled.sql, values: [...compiled.parameters] })
      await addEvents(api, owner, 20_000)
      for (const { key, name, compiled } of statements) {
        const literals = compiled.parameters.map((v) =>
          v === null ? 'null' : typeof v === 'number' ? String(v) : client.escapeLiteral(String(v)),
        )
        const plan = await client.query<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          `explain (analyze, buffers, format json) execute ${name}(${literals.join(', ')})`,
        )
        const top = plan.rows[0]?.['QUERY PLAN'][0]?.Plan
        assert.ok(top)
        read[key] = countPages(top)
      }
    } finally {
      client.release(true)
    }
    // The count, from the tallies and two partial minutes: a few database pages, not the hundreds
    // that hold the index entries of the account's 20,000 events. (Only the count: PostgreSQL may
    // plan the statement again once the table holds rows, without statistics, when a burst of
    // catalogue changes resets its caches, and then page a filter that every event matches by
    // sorting them all; that is a matter of statistics, which a running server's ANALYZE gives.)
    assert.ok(
      Object.values(read).every((n) => n < 30),
      `database pages each page's count read: ${JSON.stringify(read)}`,
    )
  })
})

interface PlanNode {
  'Node Type': string
  'Parent Relationship'?: string
  'Shared Hit Blocks': number
  'Shared Read Blocks': number
  'Actual Rows': number
  'Actual Loops': number
  Plans?: PlanNode[]
}

/** Rows the plan's scans returned, over all their loops. */
function rowsScanned(node: PlanNode): number {
  const own = node['Node Type'].includes('Scan') ? node['Actual Rows'] * node['Actual Loops'] : 0
  return own + (node.Plans ?? []).reduce((sum, child) => sum + rowsScanned(child), 0)
}

/** Database pages read by the statement's count: its InitPlans, each counted once with its own. */
function countPages(node: PlanNode): number {
  return (node.Plans ?? []).reduce(
    (sum, child) =>
      sum +
      (child['Parent Relationship'] === 'InitPlan'
        ? child['Shared Hit Blocks'] + child['Shared Read Blocks']
        : countPages(child)),
    0,
  )
}
