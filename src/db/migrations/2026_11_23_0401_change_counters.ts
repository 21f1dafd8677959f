import { type Kysely, sql } from 'kysely'
import { isPostgres, notNull } from './helpers.ts'

/**
 * Change counters on both engines. A cache of what a counter stands for stays valid while the
 * counter stays put; triggers move it on every change, by any process or any SQL client:
 * - `catalogue` (new, both engines): regions, their plan availability, compute types and public
 *   images, the static catalogues served from rendered text;
 * - on PostgreSQL, which had none: `auth` (credentials: tokens, users, apps, accounts, OAuth
 *   clients, as on SQLite) and `clock` (the stored emulator clock).
 * Frozen once released.
 */

const CREDENTIAL_TABLES = ['tokens', 'users', 'authorized_apps', 'accounts', 'oauth_clients']
const CATALOGUE_TABLES = ['regions', 'region_availability', 'compute_types']

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) await postgresUp(db)
  else await sqliteUp(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
async function sqliteUp(db: Kysely<any>): Promise<void> {
  await sql`insert into change_counters (name, value) values ('catalogue', 0)`.execute(db)
  const bump = `begin update change_counters set value = value + 1 where name = 'catalogue'; end`
  for (const table of CATALOGUE_TABLES) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(`create trigger ${table}_${event}_catalogue after ${event} on ${table} ${bump}`)
        .execute(db)
    }
  }
  // Private images come and go all the time; only a public image's change touches the catalogue.
  const images: Array<[string, string]> = [
    ['insert', 'new.is_public'],
    ['update', 'old.is_public or new.is_public'],
    ['delete', 'old.is_public'],
  ]
  for (const [event, when] of images) {
    await sql
      .raw(`create trigger images_${event}_catalogue after ${event} on images when ${when} ${bump}`)
      .execute(db)
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
async function postgresUp(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('change_counters')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'bigint', notNull)
    .execute()
  await sql`insert into change_counters (name, value) values ('auth', 0), ('clock', 0), ('catalogue', 0)`.execute(
    db,
  )
  // One function for every counter: the trigger names it in its argument.
  await sql`create function bump_change_counter() returns trigger language plpgsql as $$
    begin
      update change_counters set value = value + 1 where name = tg_argv[0];
      return null;
    end
  $$`.execute(db)
  const statementTrigger = (table: string, events: string, counter: string) =>
    sql
      .raw(
        `create trigger ${table}_${counter} after ${events} on ${table} for each statement execute function bump_change_counter('${counter}')`,
      )
      .execute(db)
  for (const table of CREDENTIAL_TABLES) await statementTrigger(table, 'update or delete', 'auth')
  for (const table of CATALOGUE_TABLES)
    await statementTrigger(table, 'insert or update or delete', 'catalogue')
  const rowTrigger = (name: string, events: string, table: string, when: string, counter: string) =>
    sql
      .raw(
        `create trigger ${name} after ${events} on ${table} for each row when (${when}) execute function bump_change_counter('${counter}')`,
      )
      .execute(db)
  await rowTrigger('images_insert_catalogue', 'insert', 'images', 'new.is_public', 'catalogue')
  await rowTrigger(
    'images_update_catalogue',
    'update',
    'images',
    'old.is_public or new.is_public',
    'catalogue',
  )
  await rowTrigger('images_delete_catalogue', 'delete', 'images', 'old.is_public', 'catalogue')
  await rowTrigger('meta_insert_clock', 'insert', 'meta', "new.key = 'clock'", 'clock')
  await rowTrigger('meta_update_clock', 'update', 'meta', "new.key = 'clock'", 'clock')
  await rowTrigger('meta_delete_clock', 'delete', 'meta', "old.key = 'clock'", 'clock')
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await db.schema.dropTable('change_counters').execute()
    await sql`drop function bump_change_counter() cascade`.execute(db)
    return
  }
  for (const table of [...CATALOGUE_TABLES, 'images']) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists ${table}_${event}_catalogue`).execute(db)
    }
  }
  await sql`delete from change_counters where name = 'catalogue'`.execute(db)
}
