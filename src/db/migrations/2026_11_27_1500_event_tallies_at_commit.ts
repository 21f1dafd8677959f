import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * PostgreSQL: an event written alone is added to the tallies as its transaction commits, not as
 * it is inserted. Every writer of an account adds to the same tally rows (its day, minute and
 * hour, its blocks of ids), and a row an insert changed stayed locked until its transaction
 * ended: through the rest of the request's statements, the wait for the server to send COMMIT
 * (sampled under load, most of the span) and the commit's flush. Writers of one account queued
 * on those rows. Added at commit, the rows are locked only while the transaction commits.
 *
 * Statements of several events (a restore, a seed, a bulk insert) are tallied at once, once per
 * statement, as before: a row trigger per event would update the same rows again and again within
 * one transaction, each update a new version that the next must walk. A statement of one event
 * records its id in a transaction-local setting, and a deferred row trigger tallies the ids listed
 * there (past DEFER_AT_MOST ids, a transaction's further events are tallied at once). Before a
 * statement that may take from the tallies (a delete, an update of a tallied column), what waits
 * is tallied first, so that it takes from rows that hold it. SQLite, one writer at a time, needs
 * nothing. Frozen once released.
 */

/** Ids listed per transaction at most (as text: about a hundred events). */
const DEFER_AT_MOST_CHARS = 1024
const PENDING = 'cloudplane.tallies_at_commit'

const DAY_KEY = 'account_id, day, action, entity_key, read'
const RANGE_KEY = 'account_id, scale, bucket, action, entity_key, read'
const SCALES = "('id256'), ('id16384'), ('minute'), ('hour')"

/** Both tallies' additions for `rows`, taking their rows in key order (2026_11_27_0045). */
const add = (rows: string) => `insert into event_tallies (${DAY_KEY}, n)
      select account_id, to_char(created, 'YYYY-MM-DD'), action, coalesce(entity_type, ''), read, count(*)
      from ${rows} group by 1, 2, 3, 4, 5 order by 1, 2, 3, 4, 5
      on conflict (${DAY_KEY}) do update set n = event_tallies.n + excluded.n;
    insert into event_range_tallies as t (${RANGE_KEY}, n, first_created, last_created)
      select account_id, s.scale, case s.scale when 'id256' then id / 256 when 'id16384' then id / 16384
        when 'minute' then floor(extract(epoch from created) / 60)::bigint
        else floor(extract(epoch from created) / 3600)::bigint end as bucket, action,
        coalesce(entity_type, '') as entity_key, read, count(*) as n, min(created), max(created)
      from ${rows} cross join (values ${SCALES}) as s(scale)
      group by 1, 2, 3, 4, 5, 6 order by 1, 2, 3, 4, 5, 6
      on conflict (${RANGE_KEY}) do update set n = t.n + excluded.n,
        first_created = least(t.first_created, excluded.first_created),
        last_created = greatest(t.last_created, excluded.last_created);`

const pending = `coalesce(current_setting('${PENDING}', true), '')`

const FUNCTIONS = [
  // After each insert statement: one event waits for the commit, several are tallied now.
  `create function event_tallies_insert_follow() returns trigger language plpgsql as $$
declare
  listed text := ${pending};
  only_id bigint;
begin
  if length(listed) < ${DEFER_AT_MOST_CHARS} then
    select min(id) into only_id from inserted having count(*) = 1;
    if only_id is not null then
      perform set_config('${PENDING}', case listed when '' then ',' else listed end || only_id || ',', true);
      return null;
    end if;
  end if;
  ${add('inserted')}
  return null;
end $$`,
  // At commit, for each event inserted: tallied if its statement left it waiting.
  `create function event_tallies_add_at_commit() returns trigger language plpgsql as $$
begin
  if position(',' || new.id || ',' in ${pending}) = 0 then
    return null;
  end if;
  ${add('(select new.*) as r')}
  return null;
end $$`,
  // Before a delete or a change of a tallied column: what waits is tallied now, so that the
  // statement takes from rows that hold it. The trigger is named in the table's own schema, for a
  // session whose search_path does not hold it.
  `create function event_tallies_flush() returns trigger language plpgsql as $$
begin
  if ${pending} <> '' then
    execute format('set constraints %I.events_tallied_at_commit immediate', tg_table_schema);
    execute format('set constraints %I.events_tallied_at_commit deferred', tg_table_schema);
    perform set_config('${PENDING}', '', true);
  end if;
  return null;
end $$`,
]

const TALLIED = 'account_id, created, action, entity_type, read'

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return
  for (const text of FUNCTIONS) await sql.raw(text).execute(db)
  for (const statement of [
    'drop trigger events_tallied_insert on events',
    'drop trigger events_range_tallied_insert on events',
    'create trigger events_tallied_insert after insert on events referencing new table as inserted for each statement execute function event_tallies_insert_follow()',
    'create constraint trigger events_tallied_at_commit after insert on events deferrable initially deferred for each row execute function event_tallies_add_at_commit()',
    'create trigger events_tallies_flush_delete before delete on events for each statement execute function event_tallies_flush()',
    `create trigger events_tallies_flush_update before update of ${TALLIED} on events for each statement execute function event_tallies_flush()`,
  ]) {
    await sql.raw(statement).execute(db)
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return
  for (const statement of [
    'drop trigger events_tallies_flush_update on events',
    'drop trigger events_tallies_flush_delete on events',
    'drop trigger events_tallied_at_commit on events',
    'drop trigger events_tallied_insert on events',
    'create trigger events_tallied_insert after insert on events referencing new table as inserted for each statement execute function event_tallies_follow()',
    'create trigger events_range_tallied_insert after insert on events referencing new table as inserted for each statement execute function event_range_tallies_follow()',
    'drop function event_tallies_flush()',
    'drop function event_tallies_add_at_commit()',
    'drop function event_tallies_insert_follow()',
  ]) {
    await sql.raw(statement).execute(db)
  }
}
