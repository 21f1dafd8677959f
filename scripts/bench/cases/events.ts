import type { Db } from '../../../src/db/connect.ts'
import { type CaseResult, growth, measure, type RunningServer } from '../harness.ts'
import { seedEvents, settle } from '../seed.ts'

/**
 * One account's event list as that account's events grow: a page of 100 in the default order, with
 * the filters clients send (one action, the unread ones, one kind of entity, one entity) and
 * ordered by a nullable field, at 1,000 events and at 1,000,000 events in the same account. Each
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
  const pages = {
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
  const request = (filter: object) => ({
    method: 'GET' as const,
    path: '/v4/account/events?page_size=100',
    headers: { ...auth, 'x-filter': JSON.stringify(filter) },
  })

  await db.deleteFrom('events').execute()
  await seedEvents(db, { count: 1000, firstAccount: me.account_id, accounts: 1 })
  await settle(db)
  const small = new Map<string, CaseResult>()
  for (const [name, filter] of Object.entries(pages)) {
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
  await settle(db)
  const results: CaseResult[] = []
  for (const [name, filter] of Object.entries(pages)) {
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
