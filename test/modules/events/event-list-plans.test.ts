import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { CompiledQuery } from 'kysely'
import { fill } from '../../../src/db/prepared.ts'
import { eventListStatements } from '../../../src/modules/events/events.repository.ts'
import { useTestApp } from '../../helpers/app.ts'

const onSqlite = process.env.CLOUDPLANE_TEST_DIALECT !== 'postgres'

/**
 * The event list's cost must not grow with the account's events: every page walks an index in its
 * order and stops after one page (no sort of the whole account), and the unfiltered and
 * per-action counts read the per-day counts, not the events. Checked on SQLite's plans, which do
 * not depend on table statistics (it keeps none unless told to).
 */
describe('account events: query plans that stay flat', { skip: !onSqlite && 'SQLite plans' }, () => {
  const api = useTestApp()
  const values = {
    account: 1,
    since: '2026-01-01T00:00:00',
    user: null,
    sinceDay: '2026-01-01',
    sinceDayEnd: '2026-01-02T00:00:00',
    limit: 25,
    offset: 0,
  }

  const plan = async (compiledSql: CompiledQuery) => {
    const explained = await api.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiledSql.sql}`, [...compiledSql.parameters]),
    )
    return explained.rows.map((r) => r.detail).join(' | ')
  }

  const FILTERS: Array<Record<string, unknown> | null> = [
    null,
    { action: 'vpc_create' },
    { read: false },
    { 'entity.type': 'vpc' },
    { 'entity.type': 'vpc', 'entity.id': 5 },
    { '+order_by': 'created', '+order': 'desc' },
    { '+order_by': 'created', '+order': 'asc' },
    { action: 'vpc_create', '+order_by': 'created', '+order': 'desc' },
    { read: false, '+order_by': 'created', '+order': 'asc' },
    { 'entity.type': 'vpc', '+order_by': 'created', '+order': 'desc' },
  ]

  for (const filter of FILTERS) {
    it(`pages without sorting the account: ${JSON.stringify(filter)}`, async () => {
      const statements = eventListStatements(api.db, {
        filter: filter === null ? null : JSON.stringify(filter),
        restricted: false,
      })
      const page = await plan(fill(statements.page, values))
      assert.doesNotMatch(page, /TEMP B-TREE/, page)
      assert.doesNotMatch(page, /SCAN events/, page)
    })
  }

  it('counts all events, and one action’s, from the per-day counts', async () => {
    for (const filter of [null, { action: 'vpc_create' }]) {
      const statements = eventListStatements(api.db, {
        filter: filter === null ? null : JSON.stringify(filter),
        restricted: false,
      })
      const count = await plan(fill(statements.count, values))
      assert.match(count, /event_counts/, count)
      assert.match(
        count,
        /SEARCH e USING COVERING INDEX \w+ \(account_id=\?( AND action=\?)? AND created>\? AND created<\?\)/,
        count,
      )
    }
  })
})
