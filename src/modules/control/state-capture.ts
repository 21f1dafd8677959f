import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import { getMeta } from '../../db/meta.repository.ts'
import { rebuildEventCounts } from '../events/event-counts.ts'
import { type StateSchema, type StateTable, stateSchema } from './state-schema.ts'

/**
 * The state as plain data: every row of every state table (or of one account), with the id
 * sequences and the server metadata that belongs to the state. Rows go back exactly as they were:
 * ids, token hashes, timestamps.
 */
export interface StateData {
  format: 'cloudplane-state'
  version: 1
  engine: 'sqlite' | 'postgres'
  /** Set when the data holds one account's rows only. */
  accountId?: number
  tables: Record<string, Array<Record<string, unknown>>>
  /** The next-id positions of the whole state (not of an account's). */
  sequences?: Record<string, number>
  /** `meta` values that belong to the state: the default user and the virtual clock. */
  meta?: { default_user_id?: string; clock?: string }
  /** Image data by blob key, base64 (snapshots only). */
  blobs?: Record<string, string>
}

// biome-ignore lint/suspicious/noExplicitAny: the state code walks tables it discovers at run time
type AnyDb = Kysely<any>

/** The rows of `table` that belong to the account (a chain of `in (select …)` up to `accounts`). */
function ownedBy(schema: StateSchema, table: StateTable, accountId: number): RawBuilder<unknown> {
  const owner = table.owner
  if (owner === undefined) throw new Error(`${table.name} belongs to no account`)
  if (table.name === 'accounts') return sql`${sql.ref('id')} = ${accountId}`
  const parent = schema.tables.find((t) => t.name === owner.parent) as StateTable
  return sql`${sql.ref(owner.column)} in (select ${sql.ref(owner.parentColumn)} from ${sql.table(parent.name)} where ${ownedBy(schema, parent, accountId)})`
}

/**
 * The rows of `state` that belong to the account, table by table, by the same chain of owners
 * that `ownedBy` follows in SQL: an account's subnets through its VPCs, and so on.
 */
export function rowsOwnedBy(
  schema: StateSchema,
  state: StateData,
  accountId: number,
): Map<string, Record<string, unknown>[]> {
  const owned = new Map<string, Record<string, unknown>[]>()
  // Parents come before children in the schema, so a parent's rows are known when asked for.
  for (const table of schema.tables) {
    const owner = table.owner
    if (owner === undefined) continue
    const rows = state.tables[table.name] ?? []
    if (table.name === 'accounts') {
      owned.set(
        table.name,
        rows.filter((row) => Number(row.id) === accountId),
      )
      continue
    }
    const parents = new Set((owned.get(owner.parent) ?? []).map((row) => String(row[owner.parentColumn])))
    owned.set(
      table.name,
      rows.filter((row) => parents.has(String(row[owner.column]))),
    )
  }
  return owned
}

export async function captureState(db: Db, options: { accountId?: number } = {}): Promise<StateData> {
  const any = db as unknown as AnyDb
  const schema = await stateSchema(db)
  const engine = dialectOf(db)
  const tables: StateData['tables'] = {}
  for (const table of schema.tables) {
    if (options.accountId !== undefined) {
      if (table.owner === undefined) continue
      const rows = await sql<Record<string, unknown>>`
        select * from ${sql.table(table.name)} where ${ownedBy(schema, table, options.accountId)}`.execute(
        any,
      )
      tables[table.name] = rows.rows
    } else {
      tables[table.name] = (
        await sql<Record<string, unknown>>`select * from ${sql.table(table.name)}`.execute(any)
      ).rows
    }
  }
  if (options.accountId !== undefined) {
    return { format: 'cloudplane-state', version: 1, engine, accountId: options.accountId, tables }
  }
  const meta: NonNullable<StateData['meta']> = {}
  const defaultUser = await getMeta(db, 'default_user_id')
  if (defaultUser !== undefined) meta.default_user_id = defaultUser
  const clock = await getMeta(db, 'clock')
  if (clock !== undefined) meta.clock = clock
  return {
    format: 'cloudplane-state',
    version: 1,
    engine,
    tables,
    sequences: await readSequences(any, schema, engine),
    meta,
  }
}

async function readSequences(
  db: AnyDb,
  schema: StateSchema,
  engine: string,
): Promise<Record<string, number>> {
  const sequenced = schema.tables.filter((t) => t.hasSequence).map((t) => t.name)
  const out: Record<string, number> = {}
  if (engine === 'sqlite') {
    const rows = await sql<{ name: string; seq: number }>`select name, seq from sqlite_sequence`.execute(db)
    for (const r of rows.rows) if (sequenced.includes(r.name)) out[r.name] = Number(r.seq)
    return out
  }
  for (const name of sequenced) {
    const row = await sql<{ value: number | null }>`
      select pg_sequence_last_value(pg_get_serial_sequence(${name}, 'id')::regclass) as value`.execute(db)
    out[name] = Number(row.rows[0]?.value ?? 0)
  }
  return out
}

/**
 * Puts `state` in place of the current one, inside the caller's transaction: the whole state
 * (every state table emptied, then filled), or, for data that names an account, that account's
 * rows only. Callers run it in one transaction, so other requests see the old state or the new.
 */
export async function restoreState(
  trx: Db,
  state: StateData,
  options: { accountId?: number; schema?: StateSchema } = {},
): Promise<void> {
  const any = trx as unknown as AnyDb
  // The caller's, read on its database handle: a transaction is a new handle, whose cache is empty.
  const schema = options.schema ?? (await stateSchema(trx))
  const engine = dialectOf(trx)
  const accountId = options.accountId ?? state.accountId
  if (accountId !== undefined) {
    for (const table of [...schema.tables].reverse()) {
      if (table.owner === undefined) continue
      await sql`delete from ${sql.table(table.name)} where ${ownedBy(schema, table, accountId)}`.execute(any)
    }
  } else if (engine === 'postgres') {
    // Every table's lock first, in one statement: a concurrent request waits, then sees the new
    // state rather than a half-emptied one. DELETE rather than TRUNCATE: truncation replaces
    // every table's and index's files, which costs far more than removing a few thousand rows.
    // One round trip for all of it (names come from the catalogue, quoted).
    const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`
    const statements = [
      `lock table ${schema.tables.map((t) => quoted(t.name)).join(', ')} in access exclusive mode`,
      ...[...schema.tables].reverse().map((t) => `delete from ${quoted(t.name)}`),
    ]
    await sql.raw(statements.join(';\n')).execute(any)
  } else {
    await emptySqliteTables(any, schema)
  }

  for (const table of schema.tables) {
    const rows = state.tables[table.name]
    if (rows === undefined || rows.length === 0) continue
    if (engine === 'sqlite' && (await insertSqliteRows(any, table, rows))) continue
    await insertRows(any, table, rows, engine)
  }

  if (engine === 'sqlite') {
    // A re-created table fired no DELETE trigger: tell every cache (the token cache of every
    // process, every account's kept event pages) that anything may have changed.
    await sql`update change_counters set value = value + 1`.execute(any)
    await sql`update event_versions set value = value + 1`.execute(any)
  }
  if (accountId === undefined) {
    // An account's restore kept them in step through the triggers; a re-created table did not.
    await rebuildEventCounts(trx)
    await writeSequences(any, schema, engine, state.sequences ?? {})
    await restoreMeta(any, 'default_user_id', state.meta?.default_user_id)
    // Written even when the state had real time: every process must hear that the clock moved.
    await restoreMeta(any, 'clock', state.meta?.clock ?? JSON.stringify({ offsetMs: 0 }))
  }
}

/** Tables at least this large are dropped and re-created rather than deleted row by row. */
const RECREATE_FROM_ROWS = 1000

/**
 * Empties every state table, children first. One statement sizes them all (each count stops at
 * RECREATE_FROM_ROWS), so a table that is already empty costs nothing, a small one is one DELETE
 * and a large one is re-created; nothing is done row by row from here.
 */
async function emptySqliteTables(db: AnyDb, schema: StateSchema): Promise<void> {
  const sizes = await sql<{ name: string; n: number }>`${sql.join(
    schema.tables.map(
      (t) =>
        sql`select ${t.name} as name, (select count(*) from (select 1 from ${sql.table(t.name)} limit ${RECREATE_FROM_ROWS})) as n`,
    ),
    sql` union all `,
  )}`.execute(db)
  const rowsIn = new Map(sizes.rows.map((r) => [r.name, Number(r.n)]))
  for (const table of [...schema.tables].reverse()) {
    const rows = rowsIn.get(table.name) ?? 0
    if (rows === 0) continue
    if (table.recreate !== undefined && rows >= RECREATE_FROM_ROWS) {
      await sql`drop table ${sql.table(table.name)}`.execute(db)
      for (const statement of table.recreate) await sql.raw(statement).execute(db)
    } else {
      await sql`delete from ${sql.table(table.name)}`.execute(db)
    }
  }
}

type Scalar = string | number | null

/**
 * SQLite: a table's rows in one statement, as one JSON parameter read back by `json_each`: no
 * statement with thousands of placeholders to build, parse and bind. False (and nothing done)
 * when a value is not a plain scalar; the general path then takes the table.
 */
async function insertSqliteRows(
  db: AnyDb,
  table: StateTable,
  rows: Array<Record<string, unknown>>,
): Promise<boolean> {
  const columns = Object.keys(rows[0] as object)
  const values: Scalar[][] = []
  for (const row of rows) {
    const out: Scalar[] = []
    for (const column of columns) {
      const value = row[column] ?? null
      if (typeof value === 'boolean') out.push(value ? 1 : 0)
      else if (value === null || typeof value === 'string' || typeof value === 'number') out.push(value)
      else return false
    }
    values.push(out)
  }
  await sql`insert into ${sql.table(table.name)} (${sql.join(columns.map((c) => sql.ref(c)))})
    select ${sql.join(columns.map((_, i) => sql`value ->> ${sql.lit(i)}`))}
    from json_each(${JSON.stringify(values)}) order by key`.execute(db)
  return true
}

async function insertRows(
  db: AnyDb,
  table: StateTable,
  rows: Array<Record<string, unknown>>,
  engine: string,
) {
  const columns = Object.keys(rows[0] as object)
  // Both engines cap the parameters of one statement (SQLite 32766, PostgreSQL 65535).
  const perBatch = Math.max(1, Math.min(1000, Math.floor(30_000 / Math.max(columns.length, 1))))
  const booleans = new Set(table.booleans)
  for (let start = 0; start < rows.length; start += perBatch) {
    const batch = rows.slice(start, start + perBatch).map((row) => {
      const out: Record<string, unknown> = {}
      for (const column of columns) {
        let value = row[column] ?? null
        // A snapshot taken on the other engine: SQLite keeps booleans as 0/1.
        if (engine === 'sqlite' && typeof value === 'boolean') value = value ? 1 : 0
        if (engine === 'postgres' && booleans.has(column) && typeof value === 'number') value = value !== 0
        out[column] = value
      }
      return out
    })
    await db.insertInto(table.name).values(batch).execute()
  }
}

async function writeSequences(
  db: AnyDb,
  schema: StateSchema,
  engine: string,
  sequences: Record<string, number>,
) {
  const sequenced = schema.tables.filter((t) => t.hasSequence).map((t) => t.name)
  if (engine === 'sqlite') {
    if (sequenced.length > 0) {
      await sql`delete from sqlite_sequence where name in (${sql.join(sequenced)})`.execute(db)
    }
    for (const name of sequenced) {
      const value = sequences[name]
      if (value !== undefined && value > 0) {
        await sql`insert into sqlite_sequence (name, seq) values (${name}, ${value})`.execute(db)
      }
    }
    return
  }
  if (sequenced.length === 0) return
  const calls = sequenced.map((name) => {
    const value = sequences[name] ?? 0
    return sql`setval(pg_get_serial_sequence(${name}, 'id'), ${Math.max(value, 1)}, ${value > 0})`
  })
  await sql`select ${sql.join(calls)}`.execute(db)
}

async function restoreMeta(db: AnyDb, key: string, value: string | undefined): Promise<void> {
  if (value === undefined) {
    await db.deleteFrom('meta').where('key', '=', key).execute()
    return
  }
  await db
    .insertInto('meta')
    .values({ key, value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value }))
    .execute()
}
