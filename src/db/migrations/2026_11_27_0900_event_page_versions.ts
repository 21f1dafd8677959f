import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * A version per account for the event pages kept as sent (common/rendered-page-cache.ts):
 * `event_versions.value` moves on every insert, change and delete of one of the account's events,
 * by any process or SQL client. Per account rather than one counter, because every write of the
 * API records an event: one shared row would make every writer of every account wait for the
 * others' commits. The rows are bookkeeping, not state: a reset or restore never lowers them.
 *
 * On PostgreSQL an insert, the change every write of the API makes, moves the version as its
 * transaction commits (a deferred trigger, once per account in a row): the account's row is then
 * locked from the commit's start to its end, not from the event's insert on, so writers of one
 * account wait for each other only while they commit. Changes and deletes, which come in bulk
 * (marking events seen, a reset), move it once per statement (transition tables), taking the rows
 * in account order so that two statements over several accounts cannot deadlock. Frozen once
 * released.
 */

const EVENTS = ['insert', 'update', 'delete'] as const

const bumpFrom = (rows: string) => `insert into event_versions as v (account_id, value)
    select account_id, 1 from ${rows} group by account_id order by account_id
    on conflict (account_id) do update set value = v.value + 1;`

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db)
  await db.schema
    .createTable('event_versions')
    .addColumn('account_id', postgres ? 'bigint' : 'integer', (c) => c.primaryKey())
    .addColumn('value', 'bigint', (c) => c.notNull())
    .execute()
  if (postgres) {
    // Each account's row moves once per transaction: a transaction-local setting remembers the
    // account last moved (a write's events are all of one account), and a row this transaction
    // already changed (its xmin) is left alone. Moved again for each of a bulk insert's rows, one
    // account's row would pile up versions that each later update walks: 200,000 events over 100
    // accounts took 50 s instead of 9.
    await sql
      .raw(`create function event_versions_bump_at_commit() returns trigger language plpgsql as $$
begin
  if coalesce(current_setting('cloudplane.event_version_moved', true), '') = new.account_id::text then
    return null;
  end if;
  perform set_config('cloudplane.event_version_moved', new.account_id::text, true);
  if exists (select 1 from event_versions where account_id = new.account_id
      and xmin::text::bigint = txid_current() % 4294967296) then
    return null;
  end if;
  insert into event_versions as v (account_id, value) values (new.account_id, 1)
    on conflict (account_id) do update set value = v.value + 1;
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(`create function event_versions_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'UPDATE' then
    ${bumpFrom('changed')}
  else
    ${bumpFrom('deleted')}
  end if;
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(
        'create constraint trigger events_versioned_insert after insert on events deferrable initially deferred for each row execute function event_versions_bump_at_commit()',
      )
      .execute(db)
    const transition = { update: 'new table as changed', delete: 'old table as deleted' }
    for (const event of ['update', 'delete'] as const) {
      await sql
        .raw(
          `create trigger events_versioned_${event} after ${event} on events referencing ${transition[event]} for each statement execute function event_versions_follow()`,
        )
        .execute(db)
    }
    return
  }
  for (const event of EVENTS) {
    const row = event === 'delete' ? 'old' : 'new'
    await sql
      .raw(
        `create trigger events_versioned_${event} after ${event} on events begin
          insert into event_versions (account_id, value) values (${row}.account_id, 1)
          on conflict (account_id) do update set value = value + 1;
        end`,
      )
      .execute(db)
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const event of EVENTS) {
    await sql
      .raw(`drop trigger if exists events_versioned_${event}${isPostgres(db) ? ' on events' : ''}`)
      .execute(db)
  }
  if (isPostgres(db)) {
    await sql`drop function if exists event_versions_follow()`.execute(db)
    await sql`drop function if exists event_versions_bump_at_commit()`.execute(db)
  }
  await db.schema.dropTable('event_versions').ifExists().execute()
}
