import type {
  CompiledQuery,
  ExpressionBuilder,
  Insertable,
  Selectable,
  SelectQueryBuilder,
  Updateable,
} from 'kysely'
import { type FilteredListFields, pageOfFilteredList } from '../common/filtered-list.ts'
import type { ListQuery } from '../common/pagination.ts'
import type { PageResult } from '../common/schemas.ts'
import type { Db } from './connect.ts'
import type { Database } from './database.ts'
import { forUpdate } from './dialects/dialect.ts'
import { defineShaped, runPrepared, stableSlot } from './prepared.ts'

/**
 * The plain reads and writes every repository makes (one table, rows picked by equal columns),
 * written once. A repository names its table and the columns that pick its rows
 * (`findRow(db, 'volumes', { id, account_id: accountId })`) and keeps its own SQL for anything
 * else: joins, ranges, grants, JSON. The SQL is what the query builder would write by hand:
 * `where a = ? and b = ?` in the order the match names them, so the same indexes serve it.
 */

export type Table = keyof Database
export type Row<T extends Table> = Selectable<Database[T]>
export type NewRow<T extends Table> = Insertable<Database[T]>
export type RowChanges<T extends Table> = Updateable<Database[T]>
export type Column<T extends Table> = keyof Row<T> & string

/** Columns of `T` and the values they must equal; a null value matches `is null`. */
export type RowMatch<T extends Table> = { readonly [C in Column<T>]?: Row<T>[C] }

export interface RowLock {
  /** Hold the row until the transaction ends (PostgreSQL; SQLite's write transaction is exclusive). */
  lock?: boolean
}

/*
 * Kysely cannot resolve the columns of a table that is a type parameter, so the helpers build
 * their queries untyped; their signatures carry the types.
 */
// biome-ignore lint/suspicious/noExplicitAny: typed at each helper's signature
type Untyped = any
const untyped = (db: Db): Untyped => db

/** The query narrowed to the rows the match picks; a write must name at least one column. */
function whereMatch(query: Untyped, match: object, write = false): Untyped {
  // An empty match on a write would change or delete the whole table.
  if (write && Object.keys(match).length === 0) throw new Error('a write must match some column')
  let narrowed = query
  for (const [column, value] of matchEntries(match)) {
    narrowed = narrowed.where(column, value === null ? 'is' : '=', value)
  }
  return narrowed
}

/** The match's columns and values in order; an undefined value is refused. */
function matchEntries(match: object): Array<[string, unknown]> {
  const entries = Object.entries(match)
  for (const [column, value] of entries) {
    // An undefined value is a programming error: it would match nothing or, dropped, everything.
    if (value === undefined) throw new Error(`no value for the match on ${column}`)
  }
  return entries
}

/** Every row of `table` that the match picks, as a query to narrow, order or page further. */
export function rowsOf<T extends Table>(
  db: Db,
  table: T,
  match: RowMatch<T>,
): SelectQueryBuilder<Database, T, Row<T>> {
  return whereMatch(untyped(db).selectFrom(table).selectAll(), match)
}

/** A page of the rows the match picks, filtered and ordered by the client's X-Filter. */
export function pageOfRows<T extends Table>(
  db: Db,
  table: T,
  match: RowMatch<T>,
  fields: FilteredListFields,
  list: ListQuery,
): Promise<PageResult<Row<T>>> {
  return pageOfFilteredList(db, rowsOf(db, table, match), fields, list)
}

/**
 * The rows whose `column` holds one of `values` (a page's worth of ids), in `order`; no query at
 * all for no values.
 */
export async function rowsIn<T extends Table, C extends Column<T>>(
  db: Db,
  table: T,
  column: C,
  values: readonly Row<T>[C][],
  order: readonly Column<T>[] = [],
): Promise<Row<T>[]> {
  if (values.length === 0) return []
  let query = untyped(db).selectFrom(table).selectAll().where(column, 'in', values)
  for (const term of order) query = query.orderBy(term)
  return query.execute()
}

/**
 * A read of one row by a match, prepared once per shape (db/prepared.ts): the table, the columns
 * it selects (`*` for all), the match's columns in order (`column!` for an `is null` test) and the
 * lock. Every by-id read runs through here; building and compiling its query cost more than
 * running it. A match's values fill slots named after their columns.
 */
const findStatement = defineShaped(
  'find row',
  (db, shape: { lock: boolean; match: string; select: string; table: string }, dialect) => {
    let query = untyped(db).selectFrom(shape.table)
    query = shape.select === '*' ? query.selectAll() : query.select(shape.select)
    for (const term of shape.match === '' ? [] : shape.match.split(',')) {
      query = term.endsWith('!')
        ? query.where(term.slice(0, -1), 'is', null)
        : query.where(term, '=', stableSlot(dialect, term))
    }
    return { find: (shape.lock ? forUpdate(db as Db, query) : query).compile() as CompiledQuery<Untyped> }
  },
)

async function findPrepared(
  db: Db,
  table: Table,
  select: string,
  match: object,
  lock: boolean,
): Promise<Untyped | undefined> {
  const terms = matchEntries(match).map(([column, value]) => (value === null ? `${column}!` : column))
  const { find } = findStatement(db, { lock, match: terms.join(','), select, table })
  const { rows } = await runPrepared(db, find, match as Record<string, unknown>)
  return rows[0]
}

/** The row the match picks (its key, or a unique set of columns); `lock` holds it for a change. */
export function findRow<T extends Table>(
  db: Db,
  table: T,
  match: RowMatch<T>,
  options: RowLock = {},
): Promise<Row<T> | undefined> {
  return findPrepared(db, table, '*', match, options.lock === true)
}

/** One column of the row the match picks; undefined when there is no such row. */
export async function findValue<T extends Table, C extends Column<T>>(
  db: Db,
  table: T,
  column: C,
  match: RowMatch<T>,
): Promise<Row<T>[C] | undefined> {
  const row = await findPrepared(db, table, column, match, false)
  return row?.[column]
}

/** How many rows the match picks. */
export async function countRows<T extends Table>(db: Db, table: T, match: RowMatch<T>): Promise<number> {
  const query = untyped(db)
    .selectFrom(table)
    .select((eb: ExpressionBuilder<Database, never>) => eb.fn.countAll().as('n'))
  const row = await whereMatch(query, match).executeTakeFirstOrThrow()
  return Number(row.n)
}

/** Inserts the row and returns it as stored (generated id and defaults filled in). */
export function insertRow<T extends Table>(db: Db, table: T, row: NewRow<T>): Promise<Row<T>> {
  return untyped(db).insertInto(table).values(row).returningAll().executeTakeFirstOrThrow()
}

/** Inserts the rows (one or several) without reading them back; nothing at all for none. */
export async function insertRows<T extends Table>(
  db: Db,
  table: T,
  rows: NewRow<T> | readonly NewRow<T>[],
): Promise<void> {
  if (Array.isArray(rows) && rows.length === 0) return
  await untyped(db).insertInto(table).values(rows).execute()
}

/**
 * Inserts the row, or where one with the same `key` columns exists, sets `changes` on it instead
 * (all of the row's other columns unless given); `'keep'` leaves the existing row as it is.
 */
export async function upsertRow<T extends Table>(
  db: Db,
  table: T,
  row: NewRow<T>,
  key: readonly Column<T>[],
  changes?: RowChanges<T> | 'keep',
): Promise<void> {
  const set =
    changes ?? Object.fromEntries(Object.entries(row).filter(([column]) => !key.includes(column as never)))
  await untyped(db)
    .insertInto(table)
    .values(row)
    .onConflict((oc: Untyped) =>
      set === 'keep' ? oc.columns(key).doNothing() : oc.columns(key).doUpdateSet(set),
    )
    .execute()
}

/**
 * Inserts the rows in one statement; where one meets a row with the same `key` columns, sets that
 * row's other columns to the values sent instead, all but those named in `keep`. Nothing at all
 * for no rows.
 */
export async function upsertRows<T extends Table>(
  db: Db,
  table: T,
  rows: readonly NewRow<T>[],
  key: readonly Column<T>[],
  keep: readonly Column<T>[] = [],
): Promise<void> {
  const first = rows[0]
  if (first === undefined) return
  const set = Object.keys(first).filter((c) => !key.includes(c as never) && !keep.includes(c as never))
  await untyped(db)
    .insertInto(table)
    .values(rows)
    .onConflict((oc: Untyped) =>
      oc
        .columns(key)
        .doUpdateSet((eb: Untyped) => Object.fromEntries(set.map((c) => [c, eb.ref(`excluded.${c}`)]))),
    )
    .execute()
}

/**
 * Makes the stored rows match `rows`, found by `key` (a unique column other than `id`): each one
 * stored already is written again under the id it has (all its columns but those in `keep` set to
 * the values sent), the others are inserted. Not an upsert on `key`: on PostgreSQL that draws an
 * id from the table's sequence for every row, even the ones it ends up updating.
 */
export async function syncRowsByKey<T extends Table, K extends Column<T>>(
  db: Db,
  table: T,
  rows: readonly NewRow<T>[],
  key: K,
  keep: readonly Column<T>[] = [],
): Promise<void> {
  if (rows.length === 0) return
  const keyOf = (row: NewRow<T>): unknown => (row as Record<string, unknown>)[key]
  const stored: Array<{ id: number } & Record<string, unknown>> = await untyped(db)
    .selectFrom(table)
    .select(['id', key])
    .where(key, 'in', rows.map(keyOf))
    .execute()
  const ids = new Map(stored.map((row) => [row[key], row.id]))
  const again = rows.flatMap((row) => {
    const id = ids.get(keyOf(row))
    return id === undefined ? [] : [{ id, ...row }]
  })
  await upsertRows(db, table, again, ['id' as Column<T>], [key, ...keep])
  await insertRows(
    db,
    table,
    rows.filter((row) => !ids.has(keyOf(row))),
  )
}

/**
 * Sets `changes` on the row the match picks and returns it; throws when there is none. No changes
 * (a body that named nothing to change) is the row as it is: an UPDATE must set something.
 */
export function updateRow<T extends Table>(
  db: Db,
  table: T,
  match: RowMatch<T>,
  changes: RowChanges<T>,
): Promise<Row<T>> {
  if (Object.keys(changes).length === 0)
    return whereMatch(rowsOf(db, table, {}), match, true).executeTakeFirstOrThrow()
  return whereMatch(untyped(db).updateTable(table).set(changes), match, true)
    .returningAll()
    .executeTakeFirstOrThrow()
}

/** Sets `changes` on every row the match picks (none: nothing to do). */
export async function updateRows<T extends Table>(
  db: Db,
  table: T,
  match: RowMatch<T>,
  changes: RowChanges<T>,
): Promise<void> {
  if (Object.keys(changes).length === 0) return
  await whereMatch(untyped(db).updateTable(table).set(changes), match, true).execute()
}

/** Deletes every row the match picks. */
export async function deleteRows<T extends Table>(db: Db, table: T, match: RowMatch<T>): Promise<void> {
  await whereMatch(untyped(db).deleteFrom(table), match, true).execute()
}

/**
 * Deletes the row the match picks; true for the one caller whose delete removed it, so that a
 * single-use row (a code, a freed address) is taken once even by racing callers.
 */
export async function takeRow<T extends Table>(db: Db, table: T, match: RowMatch<T>): Promise<boolean> {
  const result = await whereMatch(untyped(db).deleteFrom(table), match, true).executeTakeFirst()
  return Number(result.numDeletedRows) === 1
}
