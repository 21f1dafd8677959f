import { type Kysely, sql } from 'kysely'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'

/**
 * The state tables as the database itself describes them (foreign keys, identity columns,
 * booleans), so the snapshot and reset code follows every migration, including ones written
 * after it, without a list to keep in step. Read once per database handle.
 */
export interface StateTable {
  name: string
  /** Whether `id` comes from a sequence (SQLite AUTOINCREMENT, PostgreSQL identity). */
  hasSequence: boolean
  /** Every column, by name. */
  columns: string[]
  booleans: string[]
  /**
   * How a row belongs to an account: `{ column: 'id' }` for `accounts` itself, or a column
   * referencing a parent table's column whose rows belong to the account. Undefined: server-wide
   * (catalogues, jobs).
   */
  owner?: { column: string; parent: string; parentColumn: string }
  /**
   * SQLite, for tables no foreign key points at: the statements that create the table with its
   * indexes and triggers, so a large one can be emptied by dropping and re-creating it (a DELETE
   * of every row pays for each row in every index; SQLite's truncation does not apply to tables
   * with foreign keys).
   */
  recreate?: string[]
}

export interface StateSchema {
  /** Parents before children: insert in this order, delete in the reverse. */
  tables: StateTable[]
}

/** Not part of the state: bookkeeping of the server, the migrator and the controls themselves. */
const EXCLUDED = new Set([
  'meta',
  'change_counters',
  'control_snapshots',
  'control_journal',
  'control_journal_bodies',
  'control_journal_batches',
  'control_faults',
  'kysely_migration',
  'kysely_migration_lock',
  'sqlite_sequence',
  // Derived from `events` by triggers; rebuilt after a restore.
  'event_tallies',
  'event_range_tallies',
  // Versions of each account's events for the pages kept as sent: they only ever move up.
  'event_versions',
])

interface ForeignKey {
  table: string
  column: string
  parent: string
  parentColumn: string
  notNull: boolean
}

const cache = new WeakMap<object, Promise<StateSchema>>()

export function stateSchema(db: Db): Promise<StateSchema> {
  let found = cache.get(db)
  if (found === undefined) {
    found = readStateSchema(db)
    cache.set(db, found)
    found.catch(() => cache.delete(db))
  }
  return found
}

// biome-ignore lint/suspicious/noExplicitAny: introspection reads catalogue tables Kysely does not type
type AnyDb = Kysely<any>

async function readStateSchema(db: Db): Promise<StateSchema> {
  const any = db as unknown as AnyDb
  const postgres = dialectOf(db) === 'postgres'
  const names = (postgres ? await postgresTables(any) : await sqliteTables(any)).filter(
    (n) => !EXCLUDED.has(n) && !n.startsWith('sqlite_'),
  )
  const details = postgres ? await postgresDetails(any) : await sqliteDetails(any, names)
  const recreate = postgres ? new Map<string, string[]>() : await sqliteDdl(any, names)
  const keys = details.foreignKeys.filter((k) => names.includes(k.table) && names.includes(k.parent))

  // Parents first (Kahn's algorithm; a table referencing itself does not wait for itself).
  const ordered: string[] = []
  const pending = new Set(names.sort())
  while (pending.size > 0) {
    const ready = [...pending].filter((t) =>
      keys.every((k) => k.table !== t || k.parent === t || !pending.has(k.parent)),
    )
    if (ready.length === 0) throw new Error(`foreign keys form a cycle among ${[...pending].join(', ')}`)
    for (const t of ready) {
      ordered.push(t)
      pending.delete(t)
    }
  }

  const owners = new Map<string, StateTable['owner']>()
  for (const table of ordered) {
    if (table === 'accounts') {
      owners.set(table, { column: 'id', parent: 'accounts', parentColumn: 'id' })
      continue
    }
    // The path to an account through a non-null key first (an interface belongs to its config,
    // not to the subnet it may sit in).
    const candidates = keys
      .filter((k) => k.table === table && k.parent !== table && owners.get(k.parent) !== undefined)
      .sort((a, b) => Number(b.notNull) - Number(a.notNull))
    const key = candidates[0]
    owners.set(table, key && { column: key.column, parent: key.parent, parentColumn: key.parentColumn })
  }

  return {
    tables: ordered.map((name) => {
      const owner = owners.get(name)
      const ddl = recreate.get(name)
      const referenced = keys.some((k) => k.parent === name)
      return {
        name,
        hasSequence: details.sequenced.has(name),
        columns: details.columns.get(name) ?? [],
        booleans: details.booleans.get(name) ?? [],
        ...(owner && { owner }),
        ...(ddl && !referenced && { recreate: ddl }),
      }
    }),
  }
}

async function sqliteTables(db: AnyDb): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select name from sqlite_master where type = 'table'`.execute(db)
  return rows.rows.map((r) => r.name)
}

async function sqliteDetails(db: AnyDb, names: string[]) {
  const foreignKeys: ForeignKey[] = []
  const sequenced = new Set<string>()
  const booleans = new Map<string, string[]>()
  const columnsOf = new Map<string, string[]>()
  for (const table of names) {
    const columns = await sql<{ name: string; notnull: number; type: string; pk: number }>`
      select name, "notnull", type, pk from pragma_table_info(${table})`.execute(db)
    columnsOf.set(
      table,
      columns.rows.map((c) => c.name),
    )
    const notNull = new Set(columns.rows.filter((c) => c.notnull === 1 || c.pk > 0).map((c) => c.name))
    const bools = columns.rows.filter((c) => c.type.toLowerCase() === 'boolean').map((c) => c.name)
    if (bools.length > 0) booleans.set(table, bools)
    const fks = await sql<{ table: string; from: string; to: string }>`
      select "table", "from", "to" from pragma_foreign_key_list(${table})`.execute(db)
    for (const fk of fks.rows) {
      foreignKeys.push({
        table,
        column: fk.from,
        parent: fk.table,
        parentColumn: fk.to ?? 'id',
        notNull: notNull.has(fk.from),
      })
    }
    const ddl = await sql<{ sql: string }>`
      select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db)
    if (/autoincrement/i.test(ddl.rows[0]?.sql ?? '')) sequenced.add(table)
  }
  return { foreignKeys, sequenced, booleans, columns: columnsOf }
}

/** Each table's CREATE statements: the table first, then its indexes and triggers. */
async function sqliteDdl(db: AnyDb, names: string[]): Promise<Map<string, string[]>> {
  const rows = await sql<{ type: string; tbl_name: string; sql: string | null }>`
    select type, tbl_name, sql from sqlite_master where sql is not null`.execute(db)
  const out = new Map<string, string[]>()
  for (const name of names) {
    const own = rows.rows.filter((r) => r.tbl_name === name)
    const order = ['table', 'index', 'trigger']
    out.set(
      name,
      own.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type)).map((r) => r.sql as string),
    )
  }
  return out
}

async function postgresTables(db: AnyDb): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select table_name as name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(db)
  return rows.rows.map((r) => r.name)
}

async function postgresDetails(db: AnyDb) {
  const fks = await sql<ForeignKey>`
    select cl.relname as "table", att.attname as "column", pcl.relname as "parent",
           patt.attname as "parentColumn", att.attnotnull as "notNull"
    from pg_constraint c
    join pg_class cl on cl.oid = c.conrelid
    join pg_namespace n on n.oid = cl.relnamespace
    join pg_class pcl on pcl.oid = c.confrelid
    join lateral unnest(c.conkey) with ordinality k(attnum, i) on true
    join lateral unnest(c.confkey) with ordinality f(attnum, i) on f.i = k.i
    join pg_attribute att on att.attrelid = c.conrelid and att.attnum = k.attnum
    join pg_attribute patt on patt.attrelid = c.confrelid and patt.attnum = f.attnum
    where c.contype = 'f' and n.nspname = current_schema()`.execute(db)
  const columns = await sql<{ table: string; column: string; type: string; identity: string }>`
    select table_name as "table", column_name as "column", data_type as "type", is_identity as "identity"
    from information_schema.columns where table_schema = current_schema()`.execute(db)
  const sequenced = new Set(columns.rows.filter((c) => c.identity === 'YES').map((c) => c.table))
  const booleans = new Map<string, string[]>()
  for (const c of columns.rows.filter((c) => c.type === 'boolean')) {
    booleans.set(c.table, [...(booleans.get(c.table) ?? []), c.column])
  }
  const columnsOf = new Map<string, string[]>()
  for (const c of columns.rows) columnsOf.set(c.table, [...(columnsOf.get(c.table) ?? []), c.column])
  return { foreignKeys: fks.rows, sequenced, booleans, columns: columnsOf }
}
