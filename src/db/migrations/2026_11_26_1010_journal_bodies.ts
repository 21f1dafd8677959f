import { type Kysely, sql } from 'kysely'
import { notNull } from './helpers.ts'

/**
 * The journal's bodies stored once each: a table of bodies keyed by a digest of their (redacted)
 * text, and each entry naming its request's and its answer's body by that key. The same answer
 * journalled ten thousand times (a catalogue, a profile read) is one row of bodies, not ten
 * thousand copies of it. The bodies already journalled move over under a key of their own (their
 * entry's id), not a digest: a key only has to be unique.
 *
 * The index on the entries' time goes: the ring is small (ten thousand entries), a trim by age or
 * a query by time reads it whole in well under a millisecond, and the index cost every insert.
 * Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('control_journal_bodies')
    .addColumn('digest', 'text', (c) => c.primaryKey())
    .addColumn('body', 'text', notNull)
    .execute()
  await db.schema.alterTable('control_journal').addColumn('request_digest', 'text').execute()
  await db.schema.alterTable('control_journal').addColumn('response_digest', 'text').execute()
  for (const side of ['request', 'response']) {
    const key = sql.raw(`'entry-' || id || '-${side}'`)
    const body = sql.ref(`${side}_body`)
    await sql`insert into control_journal_bodies (digest, body)
      select ${key}, ${body} from control_journal where ${body} is not null`.execute(db)
    await sql`update control_journal set ${sql.ref(`${side}_digest`)} = ${key} where ${body} is not null`.execute(
      db,
    )
    await db.schema.alterTable('control_journal').dropColumn(`${side}_body`).execute()
  }
  await db.schema.dropIndex('control_journal_at').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('control_journal_at').on('control_journal').column('at_ms').execute()
  for (const side of ['request', 'response']) {
    await db.schema.alterTable('control_journal').addColumn(`${side}_body`, 'text').execute()
    await sql`update control_journal set ${sql.ref(`${side}_body`)} = (select b.body from control_journal_bodies b
      where b.digest = control_journal.${sql.ref(`${side}_digest`)})`.execute(db)
    await db.schema.alterTable('control_journal').dropColumn(`${side}_digest`).execute()
  }
  await db.schema.dropTable('control_journal_bodies').execute()
}
