import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * Change counters for the pages a caller lists again and again, kept as sent
 * (common/rendered-page-cache.ts): `tokens` moves on every change to a token, `images` on every
 * change to an image, public or private, by any process or SQL client. Frozen once released.
 */

const COUNTED = ['tokens', 'images']

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of COUNTED) {
    await sql`insert into change_counters (name, value) values (${table}, 0)`.execute(db)
    if (isPostgres(db)) {
      // One bump per statement: a statement that changes many rows moves the counter once.
      await sql
        .raw(
          `create trigger ${table}_list_counter after insert or update or delete on ${table} for each statement execute function bump_change_counter('${table}')`,
        )
        .execute(db)
      continue
    }
    for (const event of ['insert', 'update', 'delete']) {
      await sql
        .raw(
          `create trigger ${table}_${event}_list_counter after ${event} on ${table} begin update change_counters set value = value + 1 where name = '${table}'; end`,
        )
        .execute(db)
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of COUNTED) {
    if (isPostgres(db)) {
      await sql.raw(`drop trigger if exists ${table}_list_counter on ${table}`).execute(db)
    } else {
      for (const event of ['insert', 'update', 'delete']) {
        await sql.raw(`drop trigger if exists ${table}_${event}_list_counter`).execute(db)
      }
    }
    await sql`delete from change_counters where name = ${table}`.execute(db)
  }
}
