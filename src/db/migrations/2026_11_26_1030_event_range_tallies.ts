import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * Event tallies for ranges of `id` and `created` (a poller's "since"), beside the per-day tallies
 * of 2026_11_23_0801 and kept the same way: by triggers on every insert, delete and change of a
 * counted column, in the same transaction, whoever writes. Each event is counted in four buckets
 * of its kind (account, action, entity type, `read`): its block of 256 ids and of 16,384 ids, its
 * minute and its hour of `created`. Each bucket also keeps the earliest and latest `created` of
 * the events it ever counted, so that a block known to lie wholly inside (or outside) a time window
 * is counted whole (or not at all) without reading its events.
 *
 * The list then counts a range from whole buckets plus the events of the few partial ones
 * (docs/decisions.md#event-counts). Also: the index of the id order holds `created` too.
 * Frozen once released.
 */

/** The buckets: name, and the bucket of an event (`id`, `created`) as SQL on each engine. */
const SCALES = ['id256', 'id16384', 'minute', 'hour'] as const

/** `floor(a / b)` for integers of either sign (SQLite's division truncates towards zero). */
const floorDiv = (a: string, b: number) => `((${a}) - (((${a}) % ${b}) + ${b}) % ${b}) / ${b}`

function sqliteBucket(scale: (typeof SCALES)[number], row: string): string {
  switch (scale) {
    case 'id256':
      return floorDiv(`${row}.id`, 256)
    case 'id16384':
      return floorDiv(`${row}.id`, 16384)
    case 'minute':
      return floorDiv(`unixepoch(${row}.created)`, 60)
    case 'hour':
      return floorDiv(`unixepoch(${row}.created)`, 3600)
  }
}

const KEY = 'account_id, scale, bucket, action, entity_key, read'

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db)
  // The id order's index also holds `created`: a walk in id order (or over a block of ids) tests the
  // retention bound and a `created` range on the index entries, reading only the rows it keeps.
  await db.schema
    .createIndex('events_account_id_created')
    .on('events')
    .columns(['account_id', 'id', 'created'])
    .execute()
  await db.schema.dropIndex('events_account_id').execute()
  await db.schema
    .createTable('event_range_tallies')
    .addColumn('account_id', 'bigint', (c) => c.notNull())
    .addColumn('scale', 'text', (c) => c.notNull())
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    // The entity type, '' for events without an entity (a key column cannot be NULL)…
    .addColumn('entity_key', 'text', (c) => c.notNull())
    .addColumn('read', 'boolean', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    // Bounds of `created` over every event ever counted here (deletes leave them wider: still true).
    .addColumn('first_created', 'timestamp', (c) => c.notNull())
    .addColumn('last_created', 'timestamp', (c) => c.notNull())
    // …and as the events hold it, so that a filter reads the same on the tallies as on the events.
    .addColumn('entity_type', 'text', (c) => {
      const generated = c.generatedAlwaysAs(sql`nullif(entity_key, '')`)
      return postgres ? generated.stored() : generated
    })
    .addPrimaryKeyConstraint('event_range_tallies_pkey', [
      'account_id',
      'scale',
      'bucket',
      'action',
      'entity_key',
      'read',
    ])
    .execute()

  if (postgres) {
    const bucket = `case s.scale when 'id256' then id / 256 when 'id16384' then id / 16384
      when 'minute' then floor(extract(epoch from created) / 60)::bigint
      else floor(extract(epoch from created) / 3600)::bigint end`
    const grouped = (rows: string) => `select account_id, s.scale, ${bucket} as bucket, action,
        coalesce(entity_type, '') as entity_key, read, count(*) as n, min(created) as first_created,
        max(created) as last_created
      from ${rows} cross join (values ${SCALES.map((s) => `('${s}')`).join(', ')}) as s(scale)
      group by 1, 2, 3, 4, 5, 6`
    const upsert = `on conflict (${KEY}) do update set n = t.n + excluded.n,
        first_created = least(t.first_created, excluded.first_created),
        last_created = greatest(t.last_created, excluded.last_created)`
    const subtract = (rows: string) => `update event_range_tallies t set n = t.n - d.n
      from (${grouped(rows)}) d
      where t.account_id = d.account_id and t.scale = d.scale and t.bucket = d.bucket and t.action = d.action
        and t.entity_key = d.entity_key and t.read = d.read;`
    await sql
      .raw(
        `insert into event_range_tallies as t (${KEY}, n, first_created, last_created) ${grouped('events')} ${upsert}`,
      )
      .execute(db)
    // Inserts and deletes per statement, over the transition tables (a restore adds a million events
    // with one change per bucket); a change of a counted column per row (marking one event read).
    await sql
      .raw(`create function event_range_tallies_follow() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    insert into event_range_tallies as t (${KEY}, n, first_created, last_created) ${grouped('inserted')} ${upsert};
  else
    ${subtract('deleted')}
  end if;
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(`create function event_range_tallies_move() returns trigger language plpgsql as $$
begin
  ${subtract('(select old.*) as o')}
  insert into event_range_tallies as t (${KEY}, n, first_created, last_created) ${grouped('(select new.*) as r')} ${upsert};
  return null;
end $$`)
      .execute(db)
    await sql
      .raw(
        'create trigger events_range_tallied_insert after insert on events referencing new table as inserted for each statement execute function event_range_tallies_follow()',
      )
      .execute(db)
    await sql
      .raw(
        'create trigger events_range_tallied_delete after delete on events referencing old table as deleted for each statement execute function event_range_tallies_follow()',
      )
      .execute(db)
    await sql
      .raw(`create trigger events_range_tallied_update after update of account_id, created, action, entity_type, read on events
  for each row when ((old.account_id, old.created, old.action, old.entity_type, old.read)
    is distinct from (new.account_id, new.created, new.action, new.entity_type, new.read))
  execute function event_range_tallies_move()`)
      .execute(db)
    return
  }

  await sql
    .raw(`insert into event_range_tallies (${KEY}, n, first_created, last_created)
    ${SCALES.map(
      (
        s,
      ) => `select account_id, '${s}', ${sqliteBucket(s, 'events')}, action, coalesce(entity_type, ''), read,
        count(*), min(created), max(created) from events group by 1, 2, 3, 4, 5, 6`,
    ).join(' union all ')}`)
    .execute(db)
  const add = (
    row: string,
  ) => `insert into event_range_tallies (${KEY}, n, first_created, last_created) values
    ${SCALES.map(
      (s) =>
        `(${row}.account_id, '${s}', ${sqliteBucket(s, row)}, ${row}.action, coalesce(${row}.entity_type, ''), ${row}.read, 1, ${row}.created, ${row}.created)`,
    ).join(',\n    ')}
    on conflict (${KEY}) do update set n = n + 1, first_created = min(first_created, excluded.first_created),
      last_created = max(last_created, excluded.last_created);`
  const remove = (row: string) =>
    SCALES.map(
      (s) => `update event_range_tallies set n = n - 1
    where account_id = ${row}.account_id and scale = '${s}' and bucket = ${sqliteBucket(s, row)}
      and action = ${row}.action and entity_key = coalesce(${row}.entity_type, '') and read = ${row}.read;`,
    ).join('\n  ')
  await sql
    .raw(`create trigger events_range_tallied_insert after insert on events begin ${add('new')} end`)
    .execute(db)
  await sql
    .raw(`create trigger events_range_tallied_delete after delete on events begin ${remove('old')} end`)
    .execute(db)
  await sql
    .raw(`create trigger events_range_tallied_update after update of account_id, created, action, entity_type, read on events
  when old.account_id is not new.account_id or old.created is not new.created or old.action is not new.action
    or old.entity_type is not new.entity_type or old.read is not new.read
  begin ${remove('old')} ${add('new')} end`)
    .execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const event of ['insert', 'delete', 'update']) {
      await sql.raw(`drop trigger events_range_tallied_${event} on events`).execute(db)
    }
    await sql.raw('drop function event_range_tallies_follow()').execute(db)
    await sql.raw('drop function event_range_tallies_move()').execute(db)
  } else {
    for (const event of ['insert', 'delete', 'update']) {
      await sql.raw(`drop trigger events_range_tallied_${event}`).execute(db)
    }
  }
  await db.schema.dropTable('event_range_tallies').execute()
  await db.schema.createIndex('events_account_id').on('events').columns(['account_id', 'id']).execute()
  await db.schema.dropIndex('events_account_id_created').execute()
}
