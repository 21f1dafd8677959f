import { sql } from 'kysely'
import type { Db } from '../../../src/db/connect.ts'
import { type CaseResult, growth, measure, type RunningServer } from '../harness.ts'
import { seedAccounts, seedEvents, settle } from '../seed.ts'

/**
 * Issue 2's cases: regions without a token, an authenticated profile, and a page of 100 events
 * with an X-Filter, first with 1,000 event rows, then with 1,000,000 rows over many accounts (the
 * account itself holding 1,000).
 */
export async function platformCases(server: RunningServer, db: Db, token: string): Promise<CaseResult[]> {
  const auth = { authorization: `Bearer ${token}` }
  const results: CaseResult[] = []
  results.push(
    await measure('GET /v4/regions (no token)', server.baseUrl, { method: 'GET', path: '/v4/regions' }),
  )
  results.push(
    await measure(
      'GET /v4/profile',
      server.baseUrl,
      { method: 'GET', path: '/v4/profile', headers: auth },
      { goal: 0.3 },
    ),
  )

  const profile = (await (await fetch(`${server.baseUrl}/v4/profile`, { headers: auth })).json()) as {
    uid: number
  }
  const me = await db
    .selectFrom('users')
    .select('account_id')
    .where('id', '=', profile.uid)
    .executeTakeFirstOrThrow()
  await db.deleteFrom('events').execute()
  await seedEvents(db, { count: 1000, firstAccount: me.account_id, accounts: 1 })
  await settle(db)
  const events = {
    method: 'GET' as const,
    path: '/v4/account/events?page_size=100',
    headers: {
      ...auth,
      'x-filter': JSON.stringify({ 'entity.type': 'vpc', '+order_by': 'created', '+order': 'desc' }),
    },
  }
  const small = await measure('GET /v4/account/events, 1,000 rows', server.baseUrl, events, { goal: 0.15 })
  results.push(small)

  const others = 999
  const firstOther = await seedAccounts(db, others, 'bench-events')
  await seedEvents(db, { count: 999_000, firstAccount: firstOther, accounts: others })
  await settle(db)
  const total = await db.selectFrom('events').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()
  if (Number(total.n) !== 1_000_000) throw new Error(`expected 1,000,000 events, found ${total.n}`)
  const large = await measure('GET /v4/account/events, 1,000,000 rows', server.baseUrl, events, {
    goal: 0.15,
  })
  results.push(growth(small, large, 0.2))
  return results
}
