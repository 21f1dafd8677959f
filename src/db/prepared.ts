import { createHash } from 'node:crypto'
import { type CompiledQuery, type Kysely, type QueryResult, type RawBuilder, sql } from 'kysely'
import { postgresPoolOf, sqliteEngineOf } from './connect.ts'
import type { SqlDialect } from './dialects/dialect.ts'

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
 * A slot SQLite does not plan on. Built with STAT4, its planner reads the values bound to some
 * statements (seen here: any with a join, ORDER BY or LIMIT), and those are prepared again on
 * every run, better-sqlite3 then compiling a new row constructor too. Behind a unary plus (a
 * no-op in SQLite) the value is an expression the planner leaves alone, and indexes are used as
 * before. PostgreSQL gets the bare slot.
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

/** Prepared queries by shape, bounded: a flood of distinct shapes (filters) only costs re-preparing. */
export class PreparedCache<T> {
  readonly #entries = new Map<string, T>()
  readonly #max: number

  constructor(max = 500) {
    this.#max = max
  }

  get(key: string, build: () => T): T {
    let entry = this.#entries.get(key)
    if (entry === undefined) {
      entry = build()
      if (this.#entries.size >= this.#max) this.#entries.clear()
      this.#entries.set(key, entry)
    }
    return entry
  }
}

/**
 * Runs a prepared read: straight on SQLite when its connection is free (no promise hops), as a
 * named prepared statement on PostgreSQL's pool, else through Kysely like any query (inside a
 * transaction, or while the SQLite connection is busy).
 */
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
  return db.executeQuery(compiled)
}
