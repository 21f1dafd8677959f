import { createHash } from 'node:crypto'
import { type CompiledQuery, type Kysely, type QueryResult, type RawBuilder, sql } from 'kysely'
import { postgresPoolOf, sqliteEngineOf } from './connect.ts'
import { dialectOf, type SqlDialect } from './dialects/dialect.ts'

/**
 * Compile once, run many times. Building and compiling a Kysely query allocates a tree of frozen
 * objects, which under load costs more than running the SQL; for the hottest reads, the query is
 * built once per shape with named slots where per-request values go, and each request only fills
 * the slots. Values that shape the SQL (a filter's structure and constants) belong in the cache
 * key, never in a slot.
 */
export class Slot {
  readonly name: string

  constructor(name: string) {
    this.name = name
  }
}

/** A placeholder for a per-request value; stands where the value would in the query builder. */
export const slot = <T>(name: string): T => new Slot(name) as unknown as T

/**
 * A slot SQLite does not plan on. An SQLite built with STAT4 reads the values bound to some
 * statements (seen: any with a join, ORDER BY or LIMIT) and prepares those again on every run;
 * Node's own build has no STAT4 today, but the statement should not depend on it. Behind a unary
 * plus (a no-op in SQLite) the value is an expression no planner looks at, and indexes are used
 * as before. PostgreSQL gets the bare slot.
 */
export function stableSlot<T>(dialect: SqlDialect, name: string): RawBuilder<T> {
  return dialect === 'sqlite' ? sql<T>`+${slot<T>(name)}` : sql<T>`${slot<T>(name)}`
}

export interface PreparedQuery<R> {
  compiled: CompiledQuery<R>
  slots: Array<[index: number, name: string]>
}

export function prepare<R>(compiled: CompiledQuery<R>): PreparedQuery<R> {
  const slots: Array<[number, string]> = []
  compiled.parameters.forEach((value, index) => {
    if (value instanceof Slot) slots.push([index, value.name])
  })
  return { compiled, slots }
}

/** The compiled query with every slot filled; a missing value is a programming error. */
export function fill<R>(prepared: PreparedQuery<R>, values: Record<string, unknown>): CompiledQuery<R> {
  const parameters = prepared.compiled.parameters.slice()
  for (const [index, name] of prepared.slots) {
    if (!Object.hasOwn(values, name)) throw new Error(`no value for query slot ${name}`)
    parameters[index] = values[name]
  }
  return { ...prepared.compiled, parameters }
}

/**
 * A value that may shape a prepared statement's SQL: plain data only, so it can be the cache key.
 */
export type ShapeValue =
  | string
  | number
  | boolean
  | null
  | readonly ShapeValue[]
  | { readonly [key: string]: ShapeValue | undefined }

/** Prepared statements of one kind, keyed by what the builder may depend on (see `defineShaped`). */
export type Shaped<S extends ShapeValue, Q> = (db: AnyDb, shape: S) => Prepared<Q>

// biome-ignore lint/suspicious/noExplicitAny: prepared statements run on any database interface
type AnyDb = Kysely<any>

/** Each compiled query of a set prepared, in the same record shape. */
export type Prepared<Q> = {
  readonly [K in keyof Q]: Q[K] extends CompiledQuery<infer R> ? PreparedQuery<R> : never
}

/**
 * When set (the test runner sets it), every cache hit also builds the statement again and checks
 * it against the cached one, so a builder that puts something into its SQL that the shape does not
 * name (a user's id, say) fails the first test that lists as two different users.
 */
const verifying = process.env.CLOUDPLANE_VERIFY_PREPARED === '1'

function fingerprint(query: PreparedQuery<unknown>): string {
  const params = query.compiled.parameters.map((p) => (p instanceof Slot ? { slot: p.name } : p))
  return `${query.compiled.sql}\u0000${JSON.stringify(params)}`
}

function prepareAll<Q>(queries: Q): Prepared<Q> {
  const out: Record<string, PreparedQuery<unknown>> = {}
  for (const [name, compiled] of Object.entries(queries as Record<string, CompiledQuery<unknown>>)) {
    out[name] = prepare(compiled)
  }
  return out as Prepared<Q>
}

function sameStatements<Q>(a: Prepared<Q>, b: Prepared<Q>): boolean {
  const left = a as Record<string, PreparedQuery<unknown>>
  const right = b as Record<string, PreparedQuery<unknown>>
  const names = Object.keys(left)
  return (
    names.length === Object.keys(right).length &&
    names.every(
      (n) =>
        right[n] !== undefined && fingerprint(left[n] as PreparedQuery<unknown>) === fingerprint(right[n]),
    )
  )
}

/** The cache key of a shape: its JSON with object keys sorted, so equal shapes share a key. */
export function shapeKey(shape: ShapeValue | undefined): string {
  return flatShapeKey(shape) ?? sortedJson(shape)
}

/**
 * The common shape, a flat object of plain values whose keys are already in order, as JSON.stringify
 * writes it without a replacer: the same text, a few times faster (it runs on every hot list
 * request). Undefined for any other shape.
 */
function flatShapeKey(shape: ShapeValue | undefined): string | undefined {
  if (shape === null || typeof shape !== 'object' || Array.isArray(shape)) return undefined
  let previous: string | undefined
  for (const key in shape) {
    const value = (shape as Record<string, ShapeValue | undefined>)[key]
    if (typeof value === 'object' && value !== null) return undefined
    if (previous !== undefined && key < previous) return undefined
    previous = key
  }
  return JSON.stringify(shape)
}

function sortedJson(shape: ShapeValue | undefined): string {
  return JSON.stringify(shape, (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  )
}

/**
 * The one way to cache prepared statements. `build` gets the database, the shape and the dialect,
 * and returns the compiled queries of the set; per-request values must go in slots (`slot`,
 * `stableSlot`), everything else that shapes the SQL in `shape`, which is the cache key. Bounded:
 * a flood of distinct shapes (filters) only costs preparing again.
 */
export function defineShaped<S extends ShapeValue, Q extends Record<string, CompiledQuery<unknown>>>(
  name: string,
  build: (db: AnyDb, shape: S, dialect: SqlDialect) => Q,
  max = 500,
): Shaped<S, Q> {
  const entries = new Map<string, Prepared<Q>>()
  return (db, shape) => {
    const dialect = dialectOf(db)
    const key = `${dialect}\u0000${shapeKey(shape)}`
    const found = entries.get(key)
    if (found !== undefined) {
      if (verifying && !sameStatements(found, prepareAll(build(db, shape, dialect)))) {
        throw new Error(`prepared statement ${name}: its SQL depends on something its shape does not name`)
      }
      return found
    }
    const prepared = prepareAll(build(db, shape, dialect))
    if (entries.size >= max) entries.clear()
    entries.set(key, prepared)
    return prepared
  }
}

/**
 * Names for PostgreSQL prepared statements, by SQL text: the server then parses and plans a hot
 * statement once per connection instead of on every request. Bounded, since each name costs
 * server memory on every pooled connection; shapes beyond the bound run unnamed.
 */
const MAX_NAMED_STATEMENTS = 200
const statementNames = new Map<string, string>()

function statementName(sqlText: string): string | undefined {
  let name = statementNames.get(sqlText)
  if (name === undefined && statementNames.size < MAX_NAMED_STATEMENTS) {
    name = `cloudplane_${createHash('sha1').update(sqlText).digest('hex').slice(0, 24)}`
    statementNames.set(sqlText, name)
  }
  return name
}

/**
 * Runs a prepared read: straight on SQLite when its connection is free (no promise hops), as a
 * named prepared statement on PostgreSQL's pool, else through Kysely like any query (inside a
 * transaction, or while the SQLite connection is busy).
 */
export async function runPrepared<R>(
  // biome-ignore lint/suspicious/noExplicitAny: runs on any database interface
  db: Kysely<any>,
  prepared: PreparedQuery<R>,
  values: Record<string, unknown>,
): Promise<QueryResult<R>> {
  const compiled = fill(prepared, values)
  const now = sqliteEngineOf(db)?.readNow(compiled.sql, compiled.parameters)
  if (now !== undefined) return now as QueryResult<R>
  const pool = postgresPoolOf(db)
  if (pool !== undefined) {
    const name = statementName(compiled.sql)
    const result = await pool.query({
      ...(name !== undefined && { name }),
      text: compiled.sql,
      values: compiled.parameters as unknown[],
    })
    return { rows: result.rows as R[] }
  }
  if (dialectOf(db) === 'postgres') {
    // In a transaction the statement is named as well: Kysely's PostgreSQL connection hands `sql`
    // to pg's query() as is, which takes a `{ name, text }` config in its place.
    const name = statementName(compiled.sql)
    if (name !== undefined) {
      const named = { name, text: compiled.sql } as unknown as string
      return db.executeQuery({ ...compiled, sql: named })
    }
  }
  return db.executeQuery(compiled)
}
