import { type Kysely, sql } from 'kysely'
import { up as perDayCounts } from './2026_11_23_0303_event_counts.ts'
import { isPostgres } from './helpers.ts'

/**
 * Event tallies per account, day (of `created`), action, entity type and `read`, kept by triggers
 * on every insert, delete and change of those columns, whoever writes. They replace the per-day
 * counts of 2026_11_23_0303, which knew only the action: the event list's `results` for any filter
 * on `action`, `entity.type` and `read` (the unread badge, one kind of entity) then sums tallies,
 * whose number depends on the days and kinds of events, not on how many there are.
 *
 * Also: indexes that let PostgreSQL walk the order of `+order_by` on text and nullable fields
 * (byte order, NULLs first when ascending, as on SQLite) instead of sorting the account.
 * Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db)
  await db.schema
    .createTable('event_tallies')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    // `YYYY-MM-DD` of the events' `created`.
    .addColumn('day', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // The entity type, '' for events without an entity (a key column cannot be NULL)…
    .addColumn('entity_key', 'text', (c) => c.notNull())
    .addColumn('read', 'boolean', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    // …and as the events hold it, so that a filter reads the same on both tables.
    .addColumn('entity_type', 'text', (c) => {
      const generated = c.generatedAlwaysAs(sql`nullif(entity_key, '')`)
      return postgres ? generated.stored() : generated
    })
    .addPrimaryKeyConstraint('event_tallies_pkey', ['account_id', 'day', 'action', 'entity_key', 'read'])
    .execute()

  if (postgres) {
    await sql.raw('drop trigger events_counted_insert on events').execute(db)
    await sql.raw('drop trigger events_counted_delete on events').execute(db)
    await sql.raw('drop function event_counts_follow()').execute(db)
    await db.schema.dropTable('event_counts').execute()
    await sql`insert into event_tallies (account_id, day, action, entity_key, read, n)
      select account_id, to_char(created, 'YYYY-MM-DD'), action, coalesce(entity_type, ''), read, count(*)
      from events group by 1, 2, 3, 4, 5`.execute(db)
    // Inserts and deletes per statement, over the transition tables (a restore adds a million events
    // with one change per tally); a change of a counted column per row (marking one event read).
    await sql
      .raw(`create function event_tallies_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into event_tallies (account_id, day, action, entity_key, read, n)
      select account_id, to_char(created, 'YYYY-MM-DD'), action, coalesce(entity_type, ''), read, count(*)
      from inserted group by 1, 2, 3, 4, 5
      on conflict (account_id, day, action, entity_key, read) do update set n = event_tallies.n + excluded.n;
  else
    update event_tallies t set n = t.n - d.n
      from (select account_id, to_char(created, 'YYYY-MM-DD') as day, action,
          coalesce(entity_type, '') as entity_key, read, count(*) as n
        from deleted group by 1, 2, 3, 4, 5) d
      where t.account_id = d.account_id and t.day = d.day and t.action = d.action
        and t.entity_key = d.entity_key and t.read = d.read;
  end if;
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(`create function event_tallies_move() returns trigger language plpgsql as $$
begin
  update event_tallies set n = n - 1
    where account_id = old.account_id and day = to_char(old.created, 'YYYY-MM-DD') and action = old.action
      and entity_key = coalesce(old.entity_type, '') and read = old.read;
  insert into event_tallies (account_id, day, action, entity_key, read, n)
    values (new.account_id, to_char(new.created, 'YYYY-MM-DD'), new.action, coalesce(new.entity_type, ''), new.read, 1)
    on conflict (account_id, day, action, entity_key, read) do update set n = event_tallies.n + 1;
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(
        'create trigger events_tallied_insert after insert on events referencing new table as inserted for each statement execute function event_tallies_follow()',
      )
      .execute(db)
    await sql
      .raw(
        'create trigger events_tallied_delete after delete on events referencing old table as deleted for each statement execute function event_tallies_follow()',
      )
      .execute(db)
    await sql
      .raw(`create trigger events_tallied_update after update of account_id, created, action, entity_type, read on events
  for each row when ((old.account_id, old.created, old.action, old.entity_type, old.read)
    is distinct from (new.account_id, new.created, new.action, new.entity_type, new.read))
  execute function event_tallies_move()`)
      .execute(db)
    // `+order_by` on `action` and `entity.type` orders bytewise (collate "C"), and NULLs come first
    // when ascending: indexes in exactly that order, walked forwards or backwards.
    await sql
      .raw('create index events_account_action_bytes on events (account_id, action collate "C", id)')
      .execute(db)
    await sql
      .raw(
        'create index events_account_type_bytes on events (account_id, entity_type collate "C" nulls first, id)',
      )
      .execute(db)
    // Replaces (account_id, entity_id, id), which put NULLs last, and also counts an entity's
    // events of the retention window by itself.
    await sql.raw('drop index events_account_entity_id').execute(db)
    await sql
      .raw('create index events_account_entity_id on events (account_id, entity_id nulls first, id, created)')
      .execute(db)
    return
  }

  await sql.raw('drop trigger events_counted_insert').execute(db)
  await sql.raw('drop trigger events_counted_delete').execute(db)
  await db.schema.dropTable('event_counts').execute()
  await sql`insert into event_tallies (account_id, day, action, entity_key, read, n)
    select account_id, substr(created, 1, 10), action, coalesce(entity_type, ''), read, count(*)
    from events group by 1, 2, 3, 4, 5`.execute(db)
  // An entity's events of the retention window, counted from one index (without `created` in it,
  // SQLite counted them over the whole account's).
  await sql.raw('drop index events_account_entity_id').execute(db)
  await db.schema
    .createIndex('events_account_entity_id')
    .on('events')
    .columns(['account_id', 'entity_id', 'id', 'created'])
    .execute()
  const add = (row: string) => `insert into event_tallies (account_id, day, action, entity_key, read, n)
    values (${row}.account_id, substr(${row}.created, 1, 10), ${row}.action, coalesce(${row}.entity_type, ''), ${row}.read, 1)
    on conflict (account_id, day, action, entity_key, read) do update set n = n + 1;`
  const remove = (row: string) => `update event_tallies set n = n - 1
    where account_id = ${row}.account_id and day = substr(${row}.created, 1, 10) and action = ${row}.action
      and entity_key = coalesce(${row}.entity_type, '') and read = ${row}.read;`
  await sql
    .raw(`create trigger events_tallied_insert after insert on events begin ${add('new')} end`)
    .execute(db)
  await sql
    .raw(`create trigger events_tallied_delete after delete on events begin ${remove('old')} end`)
    .execute(db)
  await sql
    .raw(`create trigger events_tallied_update after update of account_id, created, action, entity_type, read on events
  when old.account_id is not new.account_id or old.created is not new.created or old.action is not new.action
    or old.entity_type is not new.entity_type or old.read is not new.read
  begin ${remove('old')} ${add('new')} end`)
    .execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql.raw('drop trigger events_tallied_insert on events').execute(db)
    await sql.raw('drop trigger events_tallied_delete on events').execute(db)
    await sql.raw('drop trigger events_tallied_update on events').execute(db)
    await sql.raw('drop function event_tallies_follow()').execute(db)
    await sql.raw('drop function event_tallies_move()').execute(db)
    await sql.raw('drop index events_account_action_bytes').execute(db)
    await sql.raw('drop index events_account_type_bytes').execute(db)
    await sql.raw('drop index events_account_entity_id').execute(db)
    await db.schema
      .createIndex('events_account_entity_id')
      .on('events')
      .columns(['account_id', 'entity_id', 'id'])
      .execute()
  } else {
    await sql.raw('drop trigger events_tallied_insert').execute(db)
    await sql.raw('drop trigger events_tallied_delete').execute(db)
    await sql.raw('drop trigger events_tallied_update').execute(db)
    await sql.raw('drop index events_account_entity_id').execute(db)
  }
  if (!isPostgres(db)) {
    await db.schema
      .createIndex('events_account_entity_id')
      .on('events')
      .columns(['account_id', 'entity_id', 'id'])
      .execute()
  }
  await db.schema.dropTable('event_tallies').execute()
  await perDayCounts(db)
}
