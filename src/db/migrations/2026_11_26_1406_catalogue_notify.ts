import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * PostgreSQL announces each move of the `catalogue` change counter: a NOTIFY on the channel
 * `cloudplane_change_counters` with the payload `<schema> <counter> <value>` (one channel for every
 * schema of the database; a listener keeps its own schema's). Processes then keep their rendered
 * catalogues without reading the counter for every request. Only this counter: the others are
 * read exactly, and a NOTIFY serializes the commits that send one. SQLite: nothing (the counter is
 * read in-process). Frozen once released.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return
  await sql`create function notify_change_counter() returns trigger language plpgsql as $$
    begin
      perform pg_notify('cloudplane_change_counters', tg_table_schema || ' ' || new.name || ' ' || new.value);
      return null;
    end
  $$`.execute(db)
  await sql`create trigger change_counters_notify after update on change_counters for each row
    when (new.name = 'catalogue') execute function notify_change_counter()`.execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return
  await sql`drop function notify_change_counter() cascade`.execute(db)
}
