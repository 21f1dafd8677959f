import { sql } from 'kysely'
import type { Db } from '../../../src/db/connect.ts'
import { dialectOf } from '../../../src/db/dialects/dialect.ts'
import { type CaseResult, growth, measure, type RunningServer } from '../harness.ts'
import { seedEvents, settle } from '../seed.ts'

/**
 * After a bulk seed, the tables as a running PostgreSQL server keeps them: its autovacuum (off on
 * the test server) vacuums a table after many inserts, which sets the visibility map that lets an
 * index-only scan skip the table. `settle` then analyzes, checkpoints and waits for the disk.
 */
async function settleEvents(db: Db): Promise<void> {
  if (dialectOf(db) === 'postgres') await sql`vacuum events, event_tallies, event_range_tallies`.execute(db)
  await settle(db)
}

/**
 * One account's event list as that account's events grow: a page of 100 in the default order, with
 * the filters clients send (one action, the unread ones, one kind of entity, one entity) and
 * ordered by a nullable field, ranges of `id` and `created` holding half the account (in the default
 * order and by created), at 1,000 events and at 1,000,000 events in the same account. Each
 * page walks an index in its order and stops; `results` comes from the tallies or from an index
 * of the filter (docs/decisions.md#event-counts). The growth goal compares each page's ratio to
 * its own ceiling at both sizes.
 */
export async function eventPageCases(
  server: RunningServer,
  db: Db,
  token: string,
  engine: string,
): Promise<CaseResult[]> {
  const auth = { authorization: `Bearer ${token}` }
  const profile = (await (await fetch(`${server.baseUrl}/v4/profile`, { headers: auth })).json()) as {
    uid: number
  }
  const me = await db
    .selectFrom('users')
    .select('account_id')
    .where('id', '=', profile.uid)
    .executeTakeFirstOrThrow()
  const fixedPages = {
    'default order': {},
    'action filter': { action: 'vpc_create' },
    unread: { read: false },
    'entity.type filter': { 'entity.type': 'vpc' },
    'one entity, by created': {
      'entity.type': 'vpc',
      'entity.id': 7,
      '+order_by': 'created',
      '+order': 'desc',
    },
    'ordered by entity.type': { '+order_by': 'entity.type', '+order': 'desc' },
  }
  // Ranges of `id` and `created` that hold about half the account's events, as the account is now:
  // its middle id, and the middle of its events' times (which the seed does not give in id order).
  const pagesNow = async () => {
    const ids = await db
      .selectFrom('events')
      .select([sql<number>`min(id)`.as('low'), sql<number>`max(id)`.as('high')])
      .where('account_id', '=', me.account_id)
      .executeTakeFirstOrThrow()
    const count = await db
      .selectFrom('events')
      .select(sql<number>`count(*)`.as('n'))
      .where('account_id', '=', me.account_id)
      .executeTakeFirstOrThrow()
    const middle = await db
      .selectFrom('events')
      .select(
        sql<string>`${dialectOf(db) === 'postgres' ? sql`to_char(created, 'YYYY-MM-DD"T"HH24:MI:SS')` : sql`created`}`.as(
          'created',
        ),
      )
      .where('account_id', '=', me.account_id)
      .orderBy('created')
      .limit(1)
      .offset(Math.floor(Number(count.n) / 2))
      .executeTakeFirstOrThrow()
    const midId = Math.floor((Number(ids.low) + Number(ids.high)) / 2)
    return {
      ...fixedPages,
      'id range, half': { id: { '+gt': midId } },
      'id range, half, by created': { id: { '+gt': midId }, '+order_by': 'created', '+order': 'desc' },
      'created range, half': { created: { '+gt': middle.created } },
      'created range, half, by created': {
        created: { '+gt': middle.created },
        '+order_by': 'created',
        '+order': 'desc',
      },
    }
  }
  const request = (filter: object) => ({
    method: 'GET' as const,
    path: '/v4/account/events?page_size=100',
    headers: { ...auth, 'x-filter': JSON.stringify(filter) },
  })

  await db.deleteFrom('events').execute()
  await seedEvents(db, { count: 1000, firstAccount: me.account_id, accounts: 1 })
  await settleEvents(db)
  const small = new Map<string, CaseResult>()
  for (const [name, filter] of Object.entries(await pagesNow())) {
    small.set(
      name,
      await measure(
        `events page, ${name}, 1,000 in the account (${engine})`,
        server.baseUrl,
        request(filter),
      ),
    )
  }

  await seedEvents(db, { count: 999_000, firstAccount: me.account_id, accounts: 1 })
  await settleEvents(db)
  const results: CaseResult[] = []
  for (const [name, filter] of Object.entries(await pagesNow())) {
    const large = await measure(
      `events page, ${name}, 1,000,000 in the account (${engine})`,
      server.baseUrl,
      request(filter),
    )
    const before = small.get(name) as CaseResult
    results.push(before, large)
    growth(before, large)
  }
  return results
}
