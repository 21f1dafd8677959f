import { type Kysely, sql } from 'kysely'
import { isPostgres, notNull, withId } from './helpers.ts'

const COLUMNS =
  'id, at_ms, real_ms, process, method, path, query, status, duration_ms, account_id, user_id, token_id, request_body, response_body, fault_rule'

/**
 * Requests that got no answer in the journal: `status` may be null (a fault rule dropped the
 * connection) and `outcome` says why an entry is not an ordinary answer (`dropped`, or
 * `client_closed` when the client went away first). SQLite cannot drop a NOT NULL, so there the
 * table is rebuilt with its rows. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    await sql`alter table control_journal alter column status drop not null`.execute(db)
    await sql`alter table control_journal add column outcome text`.execute(db)
    return
  }
  await withId(db, db.schema.createTable('control_journal_next'))
    .addColumn('at_ms', 'bigint', notNull)
    .addColumn('real_ms', 'bigint', notNull)
    .addColumn('process', 'text', notNull)
    .addColumn('method', 'text', notNull)
    .addColumn('path', 'text', notNull)
    .addColumn('query', 'text', notNull)
    .addColumn('status', 'integer')
    .addColumn('duration_ms', 'double precision', notNull)
    .addColumn('account_id', 'bigint')
    .addColumn('user_id', 'bigint')
    .addColumn('token_id', 'bigint')
    .addColumn('request_body', 'text')
    .addColumn('response_body', 'text')
    .addColumn('fault_rule', 'bigint')
    .addColumn('outcome', 'text')
    .execute()
  await sql
    .raw(`insert into control_journal_next (${COLUMNS}) select ${COLUMNS} from control_journal`)
    .execute(db)
  await db.schema.dropTable('control_journal').execute()
  await db.schema.alterTable('control_journal_next').renameTo('control_journal').execute()
  await db.schema.createIndex('control_journal_at').on('control_journal').column('at_ms').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('control_journal').where('status', 'is', null).execute()
  await db.schema.alterTable('control_journal').dropColumn('outcome').execute()
  if (isPostgres(db)) await sql`alter table control_journal alter column status set not null`.execute(db)
}
