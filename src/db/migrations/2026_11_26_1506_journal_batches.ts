import { type Kysely, sql } from 'kysely'
import { isPostgres, notNull, withId } from './helpers.ts'

/** An entry's fields in the order each entry's JSON array holds them (`id` and `process` are the batch's). */
const FIELDS = [
  ['at_ms', 'bigint'],
  ['real_ms', 'bigint'],
  ['method', 'text'],
  ['path', 'text'],
  ['query', 'text'],
  ['status', 'integer'],
  ['duration_ms', 'double precision'],
  ['account_id', 'bigint'],
  ['user_id', 'bigint'],
  ['token_id', 'bigint'],
  ['request_digest', 'text'],
  ['response_digest', 'text'],
  ['fault_rule', 'bigint'],
  ['outcome', 'text'],
] as const

/** The entries of every batch, one row each, with the columns the table of entries had. */
function entriesSelect(postgres: boolean): string {
  if (postgres) {
    const fields = FIELDS.map(([name, type], i) => `(e.v ->> ${i})::${type} as ${name}`)
    fields.splice(2, 0, 'b.process as process')
    return `select b.first_id + e.n - 1 as id, ${fields.join(', ')}
      from control_journal_batches as b
      cross join lateral jsonb_array_elements(b.rows::jsonb) with ordinality as e(v, n)`
  }
  const fields = FIELDS.map(([name], i) => `e.value ->> ${i} as ${name}`)
  fields.splice(2, 0, 'b.process as process')
  return `select b.first_id + e.key as id, ${fields.join(', ')}
    from control_journal_batches as b, json_each(b.rows) as e`
}

/**
 * The journal stored by batch: a process writes one row per batch of entries (their fields as one
 * JSON array of arrays), not one row per entry, and `control_journal` becomes a view that reads
 * the entries back out of the batches, with the columns (and ids) the table had. A batch lists the
 * bodies its entries name (`digests`, a JSON array), so that finding the bodies no entry names
 * any more reads those short lists, not every entry. A batch reserves
 * its entries' ids from a counter in `meta` (`journal_last_id`), which a clear leaves as it is, so
 * ids keep increasing across processes and are never handed out twice. On PostgreSQL the
 * journal's tables are UNLOGGED (a crash may empty them; a debugging record is not worth the
 * write-ahead log) and a batch's text is compressed with lz4 where the server has it. Existing
 * entries move over as batches of one. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db)
  const lz4 =
    postgres &&
    (
      await sql<{ n: number }>`select count(*)::int as n from pg_settings
        where name = 'default_toast_compression' and 'lz4' = any(enumvals)`.execute(db)
    ).rows[0]?.n === 1
  await sql
    .raw(
      `create ${postgres ? 'unlogged ' : ''}table control_journal_batches (
        first_id bigint primary key,
        entries integer not null,
        process text not null,
        last_at_ms bigint not null,
        last_real_ms bigint not null,
        rows text ${lz4 ? 'compression lz4 ' : ''}not null,
        digests text not null)`,
    )
    .execute(db)
  const fields = FIELDS.map(([name]) => name).join(', ')
  if (postgres) {
    await sql
      .raw(`insert into control_journal_batches (first_id, entries, process, last_at_ms, last_real_ms, rows, digests)
        select id, 1, process, at_ms, real_ms, json_build_array(json_build_array(${fields}))::text,
          json_build_array(request_digest, response_digest)::text
        from control_journal`)
      .execute(db)
    const { seq } = (
      await sql<{ seq: string }>`select pg_get_serial_sequence('control_journal', 'id') as seq`.execute(db)
    ).rows[0] ?? { seq: '' }
    await sql
      .raw(`insert into meta (key, value) select 'journal_last_id', greatest(
          (select coalesce(max(id), 0) from control_journal),
          (select case when is_called then last_value else 0 end from ${seq}))::text`)
      .execute(db)
    await sql`alter table control_journal_bodies set unlogged`.execute(db)
  } else {
    await sql
      .raw(`insert into control_journal_batches (first_id, entries, process, last_at_ms, last_real_ms, rows, digests)
        select id, 1, process, at_ms, real_ms, json_array(json_array(${fields})),
          json_array(request_digest, response_digest)
        from control_journal`)
      .execute(db)
    await sql
      .raw(`insert into meta (key, value) select 'journal_last_id', cast(max(
          (select coalesce(max(id), 0) from control_journal),
          coalesce((select seq from sqlite_sequence where name = 'control_journal'), 0)) as text)`)
      .execute(db)
  }
  await db.schema.dropTable('control_journal').execute()
  await sql.raw(`create view control_journal as ${entriesSelect(postgres)}`).execute(db)
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  const postgres = isPostgres(db)
  await sql`drop view control_journal`.execute(db)
  await withId(db, db.schema.createTable('control_journal'))
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
    .addColumn('fault_rule', 'bigint')
    .addColumn('outcome', 'text')
    .addColumn('request_digest', 'text')
    .addColumn('response_digest', 'text')
    .execute()
  const columns = ['id', 'process', ...FIELDS.map(([name]) => name)].join(', ')
  await sql
    .raw(`insert into control_journal (${columns}) select ${columns} from (${entriesSelect(postgres)}) as e`)
    .execute(db)
  if (postgres) {
    await sql`select setval(pg_get_serial_sequence('control_journal', 'id'), greatest(1,
      (select coalesce(max(id), 0) from control_journal),
      (select value::bigint from meta where key = 'journal_last_id')))`.execute(db)
    await sql`alter table control_journal_bodies set logged`.execute(db)
  }
  await sql`delete from meta where key = 'journal_last_id'`.execute(db)
  await db.schema.dropTable('control_journal_batches').execute()
}
