import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * PostgreSQL: the range tallies of 2026_11_26_1030 are locked in key order. Each event write
 * changes four tally rows (its blocks of ids, its minute and its hour), and two writers that share
 * some of them took them in the order of a hash aggregate, which is not the same for every set of
 * keys: under load two event inserts could deadlock, and one of them failed. Adding to and taking
 * from the tallies now goes by the primary key's order, the same in every transaction. SQLite,
 * with one writer at a time, needs nothing. Frozen once released.
 */

const KEY = 'account_id, scale, bucket, action, entity_key, read'
const SCALES = "('id256'), ('id16384'), ('minute'), ('hour')"

const bucket = `case s.scale when 'id256' then id / 256 when 'id16384' then id / 16384
      when 'minute' then floor(extract(epoch from created) / 60)::bigint
      else floor(extract(epoch from created) / 3600)::bigint end`

const grouped = (rows: string, ordered: boolean) => `select account_id, s.scale, ${bucket} as bucket, action,
        coalesce(entity_type, '') as entity_key, read, count(*) as n, min(created) as first_created,
        max(created) as last_created
      from ${rows} cross join (values ${SCALES}) as s(scale)
      group by 1, 2, 3, 4, 5, 6${ordered ? ' order by 1, 2, 3, 4, 5, 6' : ''}`

const add = (rows: string, ordered: boolean) =>
  `insert into event_range_tallies as t (${KEY}, n, first_created, last_created) ${grouped(rows, ordered)}
    on conflict (${KEY}) do update set n = t.n + excluded.n,
        first_created = least(t.first_created, excluded.first_created),
        last_created = greatest(t.last_created, excluded.last_created);`

const matches = `t.account_id = d.account_id and t.scale = d.scale and t.bucket = d.bucket
        and t.action = d.action and t.entity_key = d.entity_key and t.read = d.read`

/** An UPDATE … FROM locks rows in the join's order, so the rows are locked first, in key order. */
const subtract = (rows: string, ordered: boolean) =>
  `${
    ordered
      ? `perform 1 from event_range_tallies t join (${grouped(rows, false)}) d on ${matches}
      order by t.account_id, t.scale, t.bucket, t.action, t.entity_key, t.read for update of t;
  `
      : ''
  }update event_range_tallies t set n = t.n - d.n from (${grouped(rows, false)}) d where ${matches};`

const functions = (ordered: boolean) => [
  `create or replace function event_range_tallies_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    ${add('inserted', ordered)}
  else
    ${subtract('deleted', ordered)}
  end if;
  return null;
end $$`,
  `create or replace function event_range_tallies_move() returns trigger language plpgsql as $$
begin
  ${subtract('(select old.*) as o', ordered)}
  ${add('(select new.*) as r', ordered)}
  return null;
end $$`,
]

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return
  for (const text of functions(true)) await sql.raw(text).execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return
  for (const text of functions(false)) await sql.raw(text).execute(db)
}
