import { sql } from 'kysely'
import type { Db } from '../../../src/db/connect.ts'
import { type CaseResult, growth, measure, type RunningServer } from '../harness.ts'
import { seedAccounts, seedEvents, settle } from '../seed.ts'

/**
 * An authenticated profile, a page of 100 of the caller's tokens, and a page of 100 events with an
 * X-Filter, first with 1,000 event rows, then with 1,000,000 rows over many accounts (the account
 * itself holding 1,000).
 */
export async function platformCases(
  server: RunningServer,
  db: Db,
  token: string,
  engine: string,
): Promise<CaseResult[]> {
  const auth = { authorization: `Bearer ${token}` }
  const results: CaseResult[] = []
  results.push(
    await measure(
      `GET /v4/profile (${engine})`,
      server.baseUrl,
      { method: 'GET', path: '/v4/profile', headers: auth },
      engine === 'SQLite' ? { goal: 0.4 } : {},
    ),
  )

  // 99 more personal access tokens: with the bootstrap token, a full page of 100.
  for (let i = 0; i < 99; i++) {
    const res = await fetch(`${server.baseUrl}/v4/profile/tokens`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ label: `bench-${i}`, scopes: 'account:read_only' }),
    })
    if (res.status !== 200) throw new Error(`token create answered ${res.status}: ${await res.text()}`)
  }
  results.push(
    await measure(
      `GET /v4/profile/tokens, page of 100 (${engine})`,
      server.baseUrl,
      { method: 'GET', path: '/v4/profile/tokens?page_size=100', headers: auth },
      engine === 'SQLite' ? { goal: 0.25 } : {},
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
  const goal = engine === 'SQLite' ? { goal: 0.25 } : {}
  const small = await measure(`GET /v4/account/events, 1,000 rows (${engine})`, server.baseUrl, events, goal)
  results.push(small)

  const others = 999
  const firstOther = await seedAccounts(db, others, 'bench-events')
  await seedEvents(db, { count: 999_000, firstAccount: firstOther, accounts: others })
  await settle(db)
  const total = await db.selectFrom('events').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()
  if (Number(total.n) !== 1_000_000) throw new Error(`expected 1,000,000 events, found ${total.n}`)
  const large = await measure(
    `GET /v4/account/events, 1,000,000 rows (${engine})`,
    server.baseUrl,
    events,
    goal,
  )
  results.push(large)
  growth(small, large)
  return results
}
