import assert from 'node:assert/strict'
import { before, describe, it } from 'node:test'
import { type CompiledQuery, sql } from 'kysely'
import { fill, type PreparedQuery } from '../../../src/db/prepared.ts'
import { vpcListStatements } from '../../../src/modules/vpcs/vpcs.repository.ts'
import { createVpc } from '../../helpers/api-fixtures.ts'
import { useTestApp } from '../../helpers/app.ts'
import { createAccount, type TestUser } from '../../helpers/factories.ts'

const onPostgres = process.env.CLOUDPLANE_TEST_DIALECT === 'postgres'

/**
 * The VPC page on PostgreSQL must not cost more as other accounts' VPCs fill the table. Sessions
 * keep one generic plan per statement (plan_cache_mode=force_generic_plan), planned without the
 * account's id: that plan must still search the account's index, in the page's order (no sort of
 * the account, no scan of the table), for the page and for its count.
 */
describe('VPC list: PostgreSQL plans that stay flat', { skip: !onPostgres && 'PostgreSQL plans' }, () => {
  const api = useTestApp()
  let owner: TestUser

  before(async () => {
    owner = await createAccount(api)
    for (let i = 0; i < 3; i++)
      await createVpc(api, owner, { subnets: [{ label: 'a', ipv4: '10.0.0.0/24' }] })
    // 20,000 VPCs of 200 other accounts, with the statistics PostgreSQL plans from.
    await sql`insert into accounts (uuid, created)
      select 'plans-' || n, '2026-01-01T00:00:00' from generate_series(1, 200) as n`.execute(api.db)
    await sql`insert into vpcs (account_id, label, description, region, created, updated, json_head, json_tail)
      select a.id, 'vpc-' || n, '', 'us-iad', '2026-01-01T00:00:00', null, '', '}'
      from generate_series(0, 19999) as n join accounts a on a.uuid = 'plans-' || (1 + n % 200)`.execute(
      api.db,
    )
    await sql`analyze vpcs`.execute(api.db)
  })

  const literal = (value: unknown) =>
    value === null
      ? 'null'
      : typeof value === 'number'
        ? String(value)
        : `'${String(value).replace(/'/g, "''")}'`

  /** The statement's plan as the server's sessions run it: prepared, then executed generically. */
  async function plan(prepared: PreparedQuery<unknown>, values: Record<string, unknown>) {
    const compiled: CompiledQuery = fill(prepared, values)
    return api.db.connection().execute(async (c) => {
      await sql.raw(`prepare plan_check as ${compiled.sql}`).execute(c)
      try {
        const args = compiled.parameters.map(literal).join(', ')
        const { rows } = await sql
          .raw<{ 'QUERY PLAN': string }>(`explain (analyze, costs off) execute plan_check(${args})`)
          .execute(c)
        return rows.map((r) => r['QUERY PLAN']).join('\n')
      } finally {
        await sql.raw('deallocate plan_check').execute(c)
      }
    })
  }

  for (const stamped of [false, true]) {
    it(`searches the account's index for the page and its count (stamped: ${stamped})`, async () => {
      const statements = vpcListStatements(api.db, {
        filter: null,
        restricted: false,
        stamped,
        laterFields: false,
      })
      const values = { account: owner.accountId, user: null, limit: 100, offset: 0 }
      const page = await plan(statements.page, values)
      assert.match(page, /Index Scan using vpcs_account_id on vpcs\b/, page)
      assert.doesNotMatch(page, /Seq Scan on vpcs\b|Sort Key: vpcs/, page)
      const count = await plan(statements.count, values)
      assert.match(
        count,
        /(Index|Index Only|Bitmap Index) Scan on vpcs_account_\w+|using vpcs_account_\w+/,
        count,
      )
      assert.doesNotMatch(count, /Seq Scan on vpcs\b/, count)
    })
  }

  it('hands the page over as one row holding the items in order', async () => {
    const statements = vpcListStatements(api.db, {
      filter: null,
      restricted: false,
      stamped: true,
      laterFields: false,
    })
    const values = { account: owner.accountId, user: null, limit: 100, offset: 0 }
    const { rows } = await api.db.executeQuery(fill(statements.page, values))
    assert.equal(rows.length, 1)
    const res = await api.request({ method: 'GET', url: '/v4/vpcs', headers: owner.headers })
    assert.equal(res.status, 200)
    assert.equal(res.body.results, 3)
    const ids = res.body.data.map((v: { id: number }) => v.id)
    assert.deepEqual(
      ids,
      [...ids].sort((a, b) => a - b),
    )
  })
})
