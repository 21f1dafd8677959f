import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * Event counts per account, day (of `created`) and action, kept by triggers on every insert and
 * delete, whoever writes. The event list's `results` then sums at most one row per day and action
 * of the retention window instead of counting every event of the account: flat as the account's
 * events grow. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('event_counts')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    // `YYYY-MM-DD` of the events' `created`.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('event_counts_pkey', ['account_id', 'day', 'action'])
    .execute()

  if (isPostgres(db)) {
    await sql`insert into event_counts (account_id, day, action, n)
      select account_id, to_char(created, 'YYYY-MM-DD'), action, count(*) from events
      group by account_id, to_char(created, 'YYYY-MM-DD'), action`.execute(db)
    // Statement-level, over the transition tables: a statement adds or removes its events with one
    // change per counted row, so a bulk insert (a restore) does not update one row a million times.
    await sql
      .raw(`create function event_counts_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into event_counts (account_id, day, action, n)
      select account_id, to_char(created, 'YYYY-MM-DD'), action, count(*) from inserted
      group by account_id, to_char(created, 'YYYY-MM-DD'), action
      on conflict (account_id, day, action) do update set n = event_counts.n + excluded.n;
  else
    update event_counts c set n = c.n - d.n
      from (select account_id, to_char(created, 'YYYY-MM-DD') as day, action, count(*) as n from deleted
        group by account_id, to_char(created, 'YYYY-MM-DD'), action) d
      where c.account_id = d.account_id and c.day = d.day and c.action = d.action;
  end if;
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(
        'create trigger events_counted_insert after insert on events referencing new table as inserted for each statement execute function event_counts_follow()',
      )
      .execute(db)
    await sql
      .raw(
        'create trigger events_counted_delete after delete on events referencing old table as deleted for each statement execute function event_counts_follow()',
      )
      .execute(db)
    return
  }
  await sql`insert into event_counts (account_id, day, action, n)
    select account_id, substr(created, 1, 10), action, count(*) from events
    group by account_id, substr(created, 1, 10), action`.execute(db)
  await sql
    .raw(`create trigger events_counted_insert after insert on events begin
  insert into event_counts (account_id, day, action, n)
    values (new.account_id, substr(new.created, 1, 10), new.action, 1)
    on conflict (account_id, day, action) do update set n = n + 1;
end`)
    .execute(db)
  await sql
    .raw(`create trigger events_counted_delete after delete on events begin
  update event_counts set n = n - 1
    where account_id = old.account_id and day = substr(old.created, 1, 10) and action = old.action;
end`)
    .execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger events_counted_insert on events').execute(db)
    await sql.raw('drop trigger events_counted_delete on events').execute(db)
    await sql.raw('drop function event_counts_follow()').execute(db)
  } else {
    await sql.raw('drop trigger events_counted_insert').execute(db)
    await sql.raw('drop trigger events_counted_delete').execute(db)
  }
  await db.schema.dropTable('event_counts').execute()
}
