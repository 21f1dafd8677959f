import type { DatabaseSync, SQLInputValue, StatementColumnMetadata, StatementSync } from 'node:sqlite'
import type { QueryResult } from 'kysely'

/**
 * Prepared statements of one connection, by SQL text, and how to run them so that both engines
 * return the same JS values: booleans are bound as 0/1 and columns declared `boolean` come back as
 * booleans, `undefined` binds as NULL, integers come back as numbers (beyond 2^53 rounded, as
 * PostgreSQL's bigint parser does) and rows are plain objects.
 */
export interface Statement {
  /** False when running it may write (SQLite's own verdict, see `isReadOnly`). */
  readonly readOnly: boolean
  run(parameters: readonly unknown[]): QueryResult<unknown>
}

const CACHE_SIZE = 1000

export class StatementCache {
  readonly #db: DatabaseSync
  readonly #statements = new Map<string, Statement>()

  constructor(db: DatabaseSync) {
    this.#db = db
  }

  get(sqlText: string): Statement {
    let statement = this.#statements.get(sqlText)
    if (statement !== undefined) return statement
    statement = prepare(this.#db, sqlText)
    if (this.#statements.size >= CACHE_SIZE) this.#statements.clear()
    this.#statements.set(sqlText, statement)
    return statement
  }
}

function prepare(db: DatabaseSync, sqlText: string): Statement {
  const statement = db.prepare(sqlText)
  const columns = statement.columns()
  const readOnly = isReadOnly(db, sqlText)
  return columns.length > 0
    ? new Reader(db, sqlText, statement, columns, readOnly)
    : new Writer(statement, readOnly)
}

/** A statement without result columns: DML without RETURNING, DDL. */
class Writer implements Statement {
  readonly readOnly: boolean
  readonly #statement: StatementSync

  constructor(statement: StatementSync, readOnly: boolean) {
    this.#statement = statement
    this.readOnly = readOnly
  }

  run(parameters: readonly unknown[]): QueryResult<unknown> {
    const { changes, lastInsertRowid } = this.#statement.run(...bindable(parameters))
    return { rows: [], numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid) }
  }
}

/** A statement that returns rows: a SELECT, or a write with RETURNING. */
class Reader implements Statement {
  readonly readOnly: boolean
  readonly #db: DatabaseSync
  readonly #sqlText: string
  readonly #statement: StatementSync
  #row: (values: unknown[]) => Record<string, unknown>
  #width: number
  /** The same statement reading integers as bigints, for rows that hold one beyond 2^53. */
  #wide: StatementSync | undefined

  constructor(
    db: DatabaseSync,
    sqlText: string,
    statement: StatementSync,
    columns: StatementColumnMetadata[],
    readOnly: boolean,
  ) {
    this.#db = db
    this.#sqlText = sqlText
    this.#statement = statement
    statement.setReturnArrays(true)
    this.#row = rowBuilder(columns)
    this.#width = columns.length
    this.readOnly = readOnly
  }

  run(parameters: readonly unknown[]): QueryResult<unknown> {
    const params = bindable(parameters)
    // node:sqlite refuses to read an integer beyond 2^53 as a number. A read can simply run again
    // reading bigints; a write with RETURNING must run once, so it reads bigints from the start.
    let rows: unknown[][]
    if (this.readOnly) {
      try {
        rows = this.#statement.all(...params) as unknown as unknown[][]
      } catch (error) {
        if ((error as { code?: string }).code !== 'ERR_OUT_OF_RANGE') throw error
        rows = this.#allWide(params)
      }
    } else {
      rows = this.#allWide(params)
    }
    // SQLite prepares a statement again after a schema change, and `select *` may then bring more
    // or fewer columns than when the row builder was made.
    if (rows.length > 0 && (rows[0] as unknown[]).length !== this.#width) {
      const columns = this.#statement.columns()
      this.#row = rowBuilder(columns)
      this.#width = columns.length
    }
    const out: Record<string, unknown>[] = new Array(rows.length)
    for (let i = 0; i < rows.length; i++) out[i] = this.#row(rows[i] as unknown[])
    return { rows: out }
  }

  #allWide(params: SQLInputValue[]): unknown[][] {
    if (this.#wide === undefined) {
      this.#wide = this.#db.prepare(this.#sqlText)
      this.#wide.setReturnArrays(true)
      this.#wide.setReadBigInts(true)
    }
    const rows = this.#wide.all(...params) as unknown as unknown[][]
    for (const values of rows) {
      for (let i = 0; i < values.length; i++) {
        const value = values[i]
        if (typeof value === 'bigint') values[i] = Number(value)
      }
    }
    return rows
  }
}

/**
 * A function turning one row's values into a plain object, generated once per statement: an
 * object literal gives every row the same shape at once, measurably faster than adding the keys
 * one by one, and it converts `boolean` columns on the way.
 */
function rowBuilder(columns: StatementColumnMetadata[]): (values: unknown[]) => Record<string, unknown> {
  const fields = columns.map((column, i) => {
    const name = JSON.stringify(column.name)
    // A computed key defines an own property even for `__proto__`.
    const key = column.name === '__proto__' ? `[${name}]` : name
    const value =
      column.type?.toLowerCase() === 'boolean'
        ? `typeof v[${i}] === 'number' ? v[${i}] !== 0 : v[${i}]`
        : `v[${i}]`
    return `${key}: ${value}`
  })
  return new Function('v', `return { ${fields.join(', ')} }`) as (
    values: unknown[],
  ) => Record<string, unknown>
}

function bindable(parameters: readonly unknown[]): SQLInputValue[] {
  const out = new Array<SQLInputValue>(parameters.length)
  for (let i = 0; i < parameters.length; i++) {
    const value = parameters[i]
    out[i] =
      typeof value === 'boolean' ? (value ? 1 : 0) : value === undefined ? null : (value as SQLInputValue)
  }
  return out
}

/** Opcodes that make a statement a writer, besides a write transaction (after sqlite3_stmt_readonly). */
const WRITING_OPCODES = new Set(['Checkpoint', 'Vacuum', 'JournalMode'])

/**
 * Whether running the statement leaves the database as it is, decided as SQLite's own
 * sqlite3_stmt_readonly does (node:sqlite does not expose it): from its program, which starts no
 * write transaction. Prepared once per statement text, so the cost is paid once.
 */
function isReadOnly(db: DatabaseSync, sqlText: string): boolean {
  if (/^\s*explain\b/i.test(sqlText)) return true
  const program = db.prepare(`explain ${sqlText}`).all() as Array<{ opcode: string; p2: number }>
  return !program.some((op) => (op.opcode === 'Transaction' && op.p2 !== 0) || WRITING_OPCODES.has(op.opcode))
}
