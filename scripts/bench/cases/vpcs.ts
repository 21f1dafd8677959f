import type autocannon from 'autocannon'
import { sql } from 'kysely'
import type { Db } from '../../../src/db/connect.ts'
import { dialectOf } from '../../../src/db/dialects/dialect.ts'
import { apiCall, type CaseResult, capture, growth, measure, type RunningServer } from '../harness.ts'
import { seedAccounts, settle } from '../seed.ts'

/**
 * Issue 3's cases: GET /v4/vpcs/{id} with 10 subnets; a page of 100 VPCs for an account holding
 * 100 (its operator-raised quota) among 1,000 and then 1,000,000 VPCs of other accounts; and
 * durable subnet writes (create then delete, each connection in its own VPC).
 */

/** VPCs of other accounts, `count` in all, spread over `accounts` accounts, 3 subnets each 100th. */
async function seedOtherVpcs(db: Db, count: number, accounts: number): Promise<void> {
  const first = await seedAccounts(db, accounts, `bench-vpcs-${count}`)
  const numbers =
    dialectOf(db) === 'postgres'
      ? sql`select n from generate_series(0, ${count - 1}::int) as n`
      : sql`with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${count - 1}) select n from seq`
  // The stored JSON parts are what insertVpc would store for these rows (see vpc-json.ts).
  await sql`insert into vpcs (account_id, label, description, region, created, updated, json_head, json_tail)
    select ${first} + (n % ${accounts}), 'vpc-' || n, '', 'us-iad', '2026-01-01T00:00:00', '2026-01-01T00:00:00',
      ',"label":"vpc-' || n || '","description":"","region":"us-iad"',
      ',"created":"2026-01-01T00:00:00","updated":"2026-01-01T00:00:00"}'
    from (${numbers}) as s`.execute(db)
  await settle(db)
}

export async function vpcReadCases(
  server: RunningServer,
  db: Db,
  token: string,
  engine: string,
): Promise<CaseResult[]> {
  const auth = { authorization: `Bearer ${token}` }
  const me = await apiCall(server, token, 'GET', '/v4/profile')
  const user = await db
    .selectFrom('users')
    .select('account_id')
    .where('id', '=', me.uid)
    .executeTakeFirstOrThrow()
  // The operator raises this account's quota (`cloudplane account limits … --vpcs-per-region 100`).
  await db
    .insertInto('account_limits')
    .values({ account_id: user.account_id, vpcs_per_region: 100 })
    .onConflict((oc) => oc.column('account_id').doUpdateSet({ vpcs_per_region: 100 }))
    .execute()

  const withSubnets = await apiCall(server, token, 'POST', '/v4/vpcs', {
    label: 'bench-ten-subnets',
    region: 'us-iad',
    subnets: Array.from({ length: 10 }, (_, i) => ({ label: `subnet-${i}`, ipv4: `10.0.${i}.0/24` })),
  })
  const results: CaseResult[] = []
  results.push(
    await measure(
      `GET /v4/vpcs/{id}, 10 subnets (${engine})`,
      server.baseUrl,
      { method: 'GET', path: `/v4/vpcs/${withSubnets.id}`, headers: auth },
      engine === 'SQLite' ? { goal: 0.4 } : {},
    ),
  )

  for (let i = 1; i < 100; i++) {
    await apiCall(server, token, 'POST', '/v4/vpcs', {
      label: `bench-${i}`,
      region: 'us-iad',
      subnets: [{ label: 'default', ipv4: '10.0.0.0/24' }],
    })
  }
  const list = { method: 'GET' as const, path: '/v4/vpcs?page_size=100', headers: auth }
  const listed = JSON.parse((await capture(server.baseUrl, list)).body.toString()) as { results: number }
  if (listed.results !== 100) throw new Error(`expected 100 VPCs in the account, found ${listed.results}`)
  await seedOtherVpcs(db, 900, 9)
  const small = await measure(
    `GET /v4/vpcs, page of 100, 1,000 VPCs in the table (${engine})`,
    server.baseUrl,
    list,
    engine === 'SQLite' ? { goal: 0.25 } : {},
  )
  results.push(small)
  await seedOtherVpcs(db, 999_000, 999)
  const total = await db.selectFrom('vpcs').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()
  if (Number(total.n) !== 1_000_000) throw new Error(`expected 1,000,000 VPCs, found ${total.n}`)
  const large = await measure(
    `GET /v4/vpcs, page of 100, 1,000,000 VPCs in the table (${engine})`,
    server.baseUrl,
    list,
    engine === 'SQLite' ? { goal: 0.25 } : {},
  )
  results.push(large)
  growth(small, large)
  return results
}

/**
 * Durable subnet writes: each create-then-delete cycle takes a VPC from a pool and gives it back
 * after the delete, so no two cycles share a VPC (one subnet at a time, within the limit of 10).
 */
export async function subnetWriteCase(
  server: RunningServer,
  token: string,
  engine: string,
): Promise<CaseResult> {
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const vpcs: number[] = []
  for (let i = 0; i < 20; i++) {
    const region = ['us-ord', 'fr-par'][i % 2]
    vpcs.push((await apiCall(server, token, 'POST', '/v4/vpcs', { label: `bench-writes-${i}`, region })).id)
  }
  const body = JSON.stringify({ label: 'bench', ipv4: '10.1.0.0/24' })
  // A real create response, replayed by the ceiling for every request.
  const sample = await capture(server.baseUrl, {
    method: 'POST',
    path: `/v4/vpcs/${vpcs[0]}/subnets`,
    headers: auth,
    body,
  })
  const created = JSON.parse(sample.body.toString()) as { id: number }
  await apiCall(server, token, 'DELETE', `/v4/vpcs/${vpcs[0]}/subnets/${created.id}`)
  const free = [...vpcs]
  interface Ctx {
    vpc?: number
    subnet?: number
  }
  const sequence: autocannon.Request[] = [
    {
      method: 'POST',
      headers: auth,
      body,
      setupRequest: (req: autocannon.Request, context: Ctx) => {
        context.vpc = free.pop()
        return { ...req, path: `/v4/vpcs/${context.vpc}/subnets` }
      },
      onResponse: (_status: number, responseBody: string, context: Ctx) => {
        context.subnet = (JSON.parse(responseBody) as { id: number }).id
      },
    } as autocannon.Request,
    {
      method: 'DELETE',
      headers: { authorization: auth.authorization },
      setupRequest: (req: autocannon.Request, context: Ctx) => ({
        ...req,
        path: `/v4/vpcs/${context.vpc}/subnets/${context.subnet}`,
      }),
      onResponse: (_status: number, _body: string, context: Ctx) => {
        if (context.vpc !== undefined) free.push(context.vpc)
      },
    } as autocannon.Request,
  ]
  return measure(
    `POST + DELETE /v4/vpcs/{id}/subnets, durable commits (${engine})`,
    server.baseUrl,
    { method: 'POST', path: `/v4/vpcs/${vpcs[0]}/subnets`, headers: auth, body },
    {
      ...(engine === 'SQLite' && { goal: 0.15 }),
      sequence,
      ceilingResponse: sample,
      reset: async () => {
        free.splice(0, free.length, ...vpcs)
        for (const vpc of vpcs) {
          const subnets = (await (
            await fetch(`${server.baseUrl}/v4/vpcs/${vpc}/subnets`, {
              headers: { authorization: auth.authorization },
            })
          ).json()) as { data: Array<{ id: number }> }
          for (const s of subnets.data)
            await apiCall(server, token, 'DELETE', `/v4/vpcs/${vpc}/subnets/${s.id}`)
        }
      },
    },
  )
}
