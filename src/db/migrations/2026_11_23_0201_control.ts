import { type Kysely, sql } from 'kysely'
import { isPostgres, notNull } from './helpers.ts'

/**
 * The emulator controls: saved snapshots of the whole state (and the baselines that resets go
 * back to), kept in the database so that every API process sees the same ones. On SQLite, a
 * change counter follows the stored clock, so each request can see a move made by any process
 * without reading the `meta` row. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('control_snapshots')
    .addColumn('name', 'text', (c) => c.primaryKey())
    // `snapshot` (listed, named by people) or `baseline` (what a reset goes back to).
    .addColumn('kind', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('size', 'bigint', notNull)
    // gzip of the state's JSON, base64: one text column reads the same on both engines.
    .addColumn('payload', 'text', notNull)
    .execute()

  if (!isPostgres(db)) {
    await sql`insert into change_counters (name, value) values ('clock', 0)`.execute(db)
    const bump = `begin update change_counters set value = value + 1 where name = 'clock'; end`
    await sql
      .raw(`create trigger meta_insert_clock after insert on meta when new.key = 'clock' ${bump}`)
      .execute(db)
    await sql
      .raw(`create trigger meta_update_clock after update on meta when new.key = 'clock' ${bump}`)
      .execute(db)
    await sql
      .raw(`create trigger meta_delete_clock after delete on meta when old.key = 'clock' ${bump}`)
      .execute(db)
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('control_snapshots').execute()
  if (!isPostgres(db)) {
    for (const event of ['insert', 'update', 'delete']) {
      await sql.raw(`drop trigger if exists meta_${event}_clock`).execute(db)
    }
    await sql`delete from change_counters where name = 'clock'`.execute(db)
  }
}
