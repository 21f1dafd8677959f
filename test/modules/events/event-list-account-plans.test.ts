import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import { addSeconds, nowTimestamp } from '../../../src/common/time.ts'
import { postgresPoolOf } from '../../../src/db/connect.ts'
import { fill } from '../../../src/db/prepared.ts'
import { countSlots } from '../../../src/modules/events/event-counts.ts'
import { eventListStatements, recordEvents } from '../../../src/modules/events/events.repository.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'
const RETENTION_SECONDS = 90 * 24 * 3600

/**
 * PostgreSQL runs each event page on one generic plan (src/db/dialects/postgres.ts), chosen by the
 * statistics without the account's value. With a large account beside a small one, it must still
 * walk an index that begins with the account: the primary key, walked backwards with the account
 * as a filter, would read every newer event of the large account for each page of the small one.
 */
describe('account events: pages of a small account beside a large one', {
  skip: !onPostgres && 'PostgreSQL generic plans',
}, () => {
  const api = useTestApp()

  /** `count` events of the owner's, a second apart, the newest a second ago. */
  const addEvents = async (owner: TestUser, count: number) => {
    const now = nowTimestamp(api.clock)
    for (let from = 0; from < count; from += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - from) }, (_, j) => {
        const i = from + j
        return {
          accountId: owner.accountId,
          user: { id: owner.user.id, username: owner.user.username },
          action: ['vpc_create', 'vpc_update', 'vpc_delete'][i % 3] as string,
          entity: { type: 'vpc', id: i, label: `vpc-${i}`, url: `/v4/vpcs/${i}` },
          grant: null,
          created: addSeconds(now, i - count),
        }
      })
      await recordEvents(api.db, batch)
    }
  }

  it('walks the small account’s own index, not the primary key, on the server’s statements', async () => {
    // The small account's events first: every event of the large one has a greater id.
    const small = await createAccount(api)
    const large = await createAccount(api)
    await addEvents(small, 300)
    await addEvents(large, 20_000)
    await sql`analyze events`.execute(api.db)

    const filters: Array<Record<string, unknown> | undefined> = [
      undefined,
      { action: 'vpc_update' },
      { read: false },
      { '+order_by': 'entity.type', '+order': 'desc' },
    ]
    for (const filter of filters) {
      const response = await api.request({
        method: 'GET',
        url: '/v4/account/events?page_size=25',
        headers: { ...small.headers, ...(filter && { 'x-filter': JSON.stringify(filter) }) },
      })
      assert.equal(response.status, 200, JSON.stringify(response.body))
      assert.equal(response.body.results, filter?.action ? 100 : 300)
      assert.equal(response.body.data.length, 25)
    }

    // The plan each of those statements keeps on the connections that ran it.
    const pool = postgresPoolOf(api.db)
    assert.ok(pool)
    const since = addSeconds(nowTimestamp(api.clock), -RETENTION_SECONDS)
    const literal = (v: unknown) => (v === null ? 'null' : `'${String(v).replace(/'/g, "''")}'`)
    const clients = await Promise.all(Array.from({ length: pool.totalCount }, () => pool.connect()))
    try {
      for (const filter of filters) {
        const text = filter === undefined ? null : JSON.stringify(filter)
        const page = eventListStatements(api.db, { filter: text, restricted: false }).page
        const values = { account: small.accountId, since, user: null, limit: 25, offset: 0 }
        const filled = fill(page, { ...values, ...countSlots(text, since) })
        const plans: string[] = []
        for (const client of clients) {
          const found = await client.query<{ name: string }>(
            'select name from pg_prepared_statements where statement = $1',
            [filled.sql],
          )
          for (const { name } of found.rows) {
            const explained = await client.query<{ 'QUERY PLAN': string }>(
              `explain (costs off) execute ${name}(${filled.parameters.map(literal).join(', ')})`,
            )
            plans.push(explained.rows.map((r) => r['QUERY PLAN']).join('\n'))
          }
        }
        assert.ok(plans.length > 0, `the server's statement for ${text}`)
        for (const plan of plans) {
          assert.doesNotMatch(plan, /using events_pkey/, `${text}\n${plan}`)
          assert.doesNotMatch(plan, /Sort Key: .*events\.id/, `${text}\n${plan}`)
        }
      }
    } finally {
      for (const client of clients) client.release()
    }
  })
})
