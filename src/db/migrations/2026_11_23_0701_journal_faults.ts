import { type Kysely, sql } from 'kysely'
import { isPostgres, notNull, withId } from './helpers.ts'

/**
 * The emulator's request journal and fault rules, in the database so that every API process
 * writes to one journal and follows the same rules. A `faults` change counter moves when a rule is
 * added or removed (not when one fires), so each process re-reads its rules only then. Frozen
 * once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('control_journal'))
    // Milliseconds since the epoch, on the virtual clock (what the entry shows)…
    .addColumn('at_ms', 'bigint', notNull)
    // …and on the real one (what a clear compares with: the virtual clock may go back).
    .addColumn('real_ms', 'bigint', notNull)
    .addColumn('process', 'text', notNull)
    .addColumn('method', 'text', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('query', 'text', notNull)
    .addColumn('status', 'integer', notNull)
    .addColumn('duration_ms', 'double precision', notNull)
    .addColumn('account_id', 'bigint')
    .addColumn('user_id', 'bigint')
    .addColumn('token_id', 'bigint')
    .addColumn('request_body', 'text')
    .addColumn('response_body', 'text')
    .addColumn('fault_rule', 'bigint')
    .execute()
  await db.schema.createIndex('control_journal_at').on('control_journal').column('at_ms').execute()

  await withId(db, db.schema.createTable('control_faults'))
    .addColumn('created', 'timestamp', notNull)
    .addColumn('method', 'text')
    .addColumn('path', 'text')
    .addColumn('account_id', 'bigint')
    .addColumn('token_id', 'bigint')
    .addColumn('probability', 'double precision', notNull)
    .addColumn('times', 'integer')
    .addColumn('fired', 'integer', notNull)
    .addColumn('seed', 'text')
    .addColumn('preset', 'text')
    // What the rule does, as JSON: `{ "kind": "status" | "latency" | "drop" | "job", … }`.
    .addColumn('effect', 'text', notNull)
    .execute()

  await sql`insert into change_counters (name, value) values ('faults', 0)`.execute(db)
  if (isPostgres(db)) {
    await sql
      .raw(
        `create trigger control_faults_faults after insert or delete on control_faults for each statement execute function bump_change_counter('faults')`,
      )
      .execute(db)
  } else {
    const bump = `begin update change_counters set value = value + 1 where name = 'faults'; end`
    for (const event of ['insert', 'delete']) {
      await sql
        .raw(`create trigger control_faults_${event} after ${event} on control_faults ${bump}`)
        .execute(db)
    }
  }
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('control_faults').execute()
  await db.schema.dropTable('control_journal').execute()
  await sql`delete from change_counters where name = 'faults'`.execute(db)
}
