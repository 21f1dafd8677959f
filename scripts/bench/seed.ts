import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { sql } from 'kysely'
import type { Db } from '../../src/db/connect.ts'
import { dialectOf } from '../../src/db/dialects/dialect.ts'

/**
 * Bulk data for the benchmarks, generated inside the database in one statement each (a million
 * rows in seconds), on either engine.
 */

/** `count` rows numbered 0..count-1 as a `seq(n)` table expression. */
function numbers(db: Db, count: number) {
  return dialectOf(db) === 'postgres'
    ? sql`select n from generate_series(0, ${count - 1}::int) as n`
    : sql`with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${count - 1}) select n from seq`
}

function secondsAgo(db: Db, expression: ReturnType<typeof sql.raw>) {
  return dialectOf(db) === 'postgres'
    ? sql`(now() at time zone 'utc')::timestamp(0) - make_interval(secs => ${expression})`
    : sql`strftime('%Y-%m-%dT%H:%M:%S', 'now', '-' || (${expression}) || ' seconds')`
}

/** Creates `count` accounts (with no users) and returns the first new id. */
export async function seedAccounts(db: Db, count: number, tag: string): Promise<number> {
  const before = await db
    .selectFrom('accounts')
    .select(sql<number>`coalesce(max(id), 0)`.as('max'))
    .executeTakeFirstOrThrow()
  await sql`insert into accounts (uuid, created)
    select ${`${tag}-`} || n, ${secondsAgo(db, sql.raw('0'))} from (${numbers(db, count)}) as s`.execute(db)
  return Number(before.max) + 1
}

/**
 * `count` events spread round-robin over accounts firstAccount..firstAccount+accounts-1, all of
 * entity type `vpc`, created within the last day.
 *
 * Their times are scattered over the day without regard to their ids (the n-th event `n * 7919`
 * seconds ago, modulo a day, 7919 being prime to a day's seconds): the same shape at 1,000 events
 * as at 1,000,000, so that a growth case compares sizes, not shapes. Taking `n` seconds modulo a
 * day gave 1,000 events in exact reverse order of time and 1,000,000 in eleven runs, and pages
 * whose walk depends on the shape (an `id` range by `created`) looked as if they grew.
 */
export async function seedEvents(
  db: Db,
  options: { count: number; firstAccount: number; accounts: number },
): Promise<void> {
  const { count, firstAccount, accounts } = options
  // The stored tail is what recordEvents would render for these rows (see event-wire.ts).
  await sql`insert into events (account_id, user_id, username, action, entity_type, entity_id, entity_label,
      entity_url, status, message, seen, read, created, json_tail)
    select account_id, null, 'bench', action, 'vpc', n, 'vpc-' || n, '/v4/vpcs/' || n, 'notification', '',
      ${false}, ${false}, created,
      '"percent_complete":null,"time_remaining":null,"rate":null,"duration":null,"action":"' || action ||
      '","username":"bench","entity":{"label":"vpc-' || n || '","id":' || n || ',"type":"vpc","url":"/v4/vpcs/' || n ||
      '"},"status":"notification","secondary_entity":null,"message":""}'
    from (select n, ${firstAccount} + (n % ${accounts}) as account_id,
        case n % 3 when 0 then 'vpc_create' when 1 then 'vpc_update' else 'vpc_delete' end as action,
        ${secondsAgo(db, sql.raw(dialectOf(db) === 'postgres' ? '(n::bigint * 7919) % 86400' : '(n * 7919) % 86400'))} as created
      from (${numbers(db, count)}) as s) as e`.execute(db)
}

/**
 * After a bulk seed, fold the write-ahead log back into the database file, as SQLite's automatic
 * checkpoints keep it small in normal operation (a million rows in one transaction would otherwise
 * leave every reader consulting a huge WAL); on PostgreSQL, analyze and checkpoint.
 *
 * Then wait until the system has written every dirty page to the disk (`sync`). Without it the
 * seed's hundreds of megabytes (PostgreSQL's above all, whose checkpointer spreads them out) were
 * still being written back a minute later, while the cases at the large size were measured and
 * not those at the small one.
 */
export async function settle(db: Db): Promise<void> {
  if (dialectOf(db) === 'sqlite') await sql`pragma wal_checkpoint(truncate)`.execute(db)
  else {
    await sql`analyze`.execute(db)
    await sql`checkpoint`.execute(db)
  }
  await promisify(execFile)('sync')
}
