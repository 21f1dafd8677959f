import { type Kysely, sql } from 'kysely'
import { isPostgres } from './helpers.ts'

/**
 * SQLite: the event tallies (2026_11_23_0801 and 2026_11_26_1030) become WITHOUT ROWID tables,
 * stored in the order of their primary key. As rowid tables, every tally row a count reads was a
 * step in the key's index and then a second search of the table for the row; a count over an `id`
 * range reads some two hundred of them at a million events, and took three times as long as it
 * does in one tree. The upsert of each recorded event finds its rows the same one-step way.
 * PostgreSQL, whose tables have no such choice, is unchanged. Frozen once released.
 */

const TABLES = ['event_tallies', 'event_range_tallies'] as const

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
type AnyDb = Kysely<any>

/**
 * Copies `table` into a new table of the same definition with or without rowids, and puts it in
 * its place with its indexes; the triggers that write to it (on `events`) are set up again as they
 * were, since a trigger cannot outlive a rename of the table it names.
 */
async function rebuild(db: AnyDb, table: string, withoutRowid: boolean): Promise<void> {
  const own = await sql<{ type: string; name: string; sql: string }>`
    select type, name, sql from sqlite_master where tbl_name = ${table} and sql is not null`.execute(db)
  const definition = own.rows.find((r) => r.type === 'table')?.sql
  if (definition === undefined) throw new Error(`no table ${table}`)
  const indexes = own.rows.filter((r) => r.type === 'index')
  const names = new RegExp(`\\b${table}\\b`)
  const triggers = (
    await sql<{ name: string; sql: string }>`
      select name, sql from sqlite_master where type = 'trigger' and tbl_name <> ${table}`.execute(db)
  ).rows.filter((t) => names.test(t.sql))
  // Stored columns only: a generated column is computed again in the new table.
  const columns = await sql<{ name: string }>`
    select name from pragma_table_xinfo(${table}) where hidden = 0`.execute(db)
  const list = columns.rows.map((c) => `"${c.name}"`).join(', ')
  const body = definition
    .replace(/^create table\s+"?[a-z_]+"?/i, '')
    .replace(/\)\s*(without rowid)?\s*$/i, ')')
  const copy = `${table}_rebuilt`

  for (const trigger of triggers) await sql.raw(`drop trigger "${trigger.name}"`).execute(db)
  await sql.raw(`create table "${copy}" ${body}${withoutRowid ? ' without rowid' : ''}`).execute(db)
  await sql.raw(`insert into "${copy}" (${list}) select ${list} from "${table}"`).execute(db)
  await sql.raw(`drop table "${table}"`).execute(db)
  await sql.raw(`alter table "${copy}" rename to "${table}"`).execute(db)
  for (const index of indexes) await sql.raw(index.sql).execute(db)
  for (const trigger of triggers) await sql.raw(trigger.sql).execute(db)
}

export async function up(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return
  for (const table of TABLES) await rebuild(db, table, true)
}

export async function down(db: AnyDb): Promise<void> {
  if (isPostgres(db)) return
  for (const table of TABLES) await rebuild(db, table, false)
}
