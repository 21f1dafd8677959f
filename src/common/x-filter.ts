import { type RawBuilder, type SqlBool, sql } from 'kysely'
import type { SqlDialect } from '../db/dialects/dialect.ts'
import { badRequest } from './errors.ts'
import type { OrderTerm } from './pagination.ts'
import { parseTimestamp } from './time.ts'

/**
 * X-Filter (docs/service-facts.md#x-filter): a JSON object in a request header, compiled here into a
 * parameterized SQL condition and ORDER BY. Nothing is ever filtered in memory.
 */

export type FilterFieldType = 'integer' | 'string' | 'boolean' | 'timestamp'

export interface FilterField {
  /** Qualified column or SQL expression the field maps to, e.g. `vpcs.label`. */
  column: string
  type: FilterFieldType
  /** `+order_by` allowed (default true); images refuse ordering by `status`. */
  orderable?: boolean
  /** The column can hold NULL, so ordering must place NULLs the same way on both engines. */
  nullable?: boolean
  /** Turns a client value into the stored value; undefined means "not a valid value". */
  parse?: (value: unknown) => unknown
  /**
   * A condition a client value also implies, e.g. `entity.id: "private/12"` names an image, so
   * only rows whose entity is an image match it.
   */
  scope?: (value: unknown) => RawBuilder<SqlBool> | undefined
}

export type FilterSpec = Readonly<Record<string, FilterField>>

export interface CompiledFilter {
  where: RawBuilder<SqlBool> | undefined
  order: OrderTerm | undefined
}

const FIELD = 'X-Filter'
const COMPARISONS = { '+gt': '>', '+gte': '>=', '+lt': '<', '+lte': '<=' } as const
/** Alternating +and/+or nesting deeper than this is refused rather than sent to SQL's parser limits. */
export const MAX_FILTER_DEPTH = 64
export const MAX_FILTER_TERMS = 1000
/** Substring searches scan every row they meet; a few per request is all a client needs. */
export const MAX_CONTAINS_TERMS = 16

const fail = (reason: string) => badRequest(reason, FIELD)

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

export function parseFilterHeader(header: string | undefined): Record<string, unknown> | undefined {
  if (header === undefined || header.trim() === '') return undefined
  let parsed: unknown
  try {
    parsed = JSON.parse(header)
  } catch {
    throw fail('X-Filter must be valid JSON')
  }
  if (!isPlainObject(parsed)) throw fail('X-Filter must be a JSON object')
  return parsed
}

export function compileFilter(
  header: string | undefined,
  spec: FilterSpec,
  dialect: SqlDialect,
): CompiledFilter {
  const root = parseFilterHeader(header)
  if (root === undefined) return { where: undefined, order: undefined }
  const compiler = new FilterCompiler(spec, dialect)
  return { where: compiler.conditions(root, 0, true), order: compiler.order(root) }
}

/**
 * `a op b op c …` as a balanced tree of parentheses. A flat chain is as deep as it is long in
 * SQLite's parser, whose expression depth is bounded (1000), so a long `+or` would fail in SQL;
 * balanced, a thousand terms are ten levels deep.
 */
function balanced(parts: readonly RawBuilder<SqlBool>[], joiner: RawBuilder<unknown>): RawBuilder<SqlBool> {
  if (parts.length === 1) return parts[0] as RawBuilder<SqlBool>
  const middle = Math.ceil(parts.length / 2)
  return sql<SqlBool>`(${balanced(parts.slice(0, middle), joiner)}${joiner}${balanced(parts.slice(middle), joiner)})`
}

/**
 * Whether a database error says a query was too complex to run (expression depth, parser or
 * stack limits): what a client's filter can cause, so it is answered as a bad filter.
 */
export function isTooComplexForDatabase(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null
  if (e?.code === '54001' || e?.code === '54000') return true
  const message = typeof e?.message === 'string' ? e.message : ''
  return /Expression tree is too large|parser stack overflow|too many terms in compound SELECT|too many SQL variables/i.test(
    message,
  )
}

class FilterCompiler {
  readonly #spec: FilterSpec
  readonly #dialect: SqlDialect
  #terms = 0
  #contains = 0

  constructor(spec: FilterSpec, dialect: SqlDialect) {
    this.#spec = spec
    this.#dialect = dialect
  }

  order(root: Record<string, unknown>): OrderTerm | undefined {
    const orderBy = root['+order_by']
    const order = root['+order']
    if (
      order !== undefined &&
      (typeof order !== 'string' || !['asc', 'desc'].includes(order.toLowerCase()))
    ) {
      throw fail('+order must be "asc" or "desc"')
    }
    if (orderBy === undefined) return undefined
    if (typeof orderBy !== 'string') throw fail('+order_by must be a field name')
    const field = this.#field(orderBy)
    if (field.orderable === false) throw fail(`Cannot order by ${orderBy}`)
    const direction = typeof order === 'string' && order.toLowerCase() === 'desc' ? 'desc' : 'asc'
    return { ...this.#orderExpression(field, direction), direction }
  }

  /** The AND of every key of one filter object; ordering keys count only at the top level. */
  conditions(node: Record<string, unknown>, depth: number, top: boolean): RawBuilder<SqlBool> | undefined {
    if (depth > MAX_FILTER_DEPTH) throw fail('X-Filter is nested too deeply')
    const parts: RawBuilder<SqlBool>[] = []
    for (const [key, value] of Object.entries(node)) {
      if (key === '+order_by' || key === '+order') {
        if (!top) throw fail(`${key} is only allowed at the top level of X-Filter`)
        continue
      }
      if (key === '+and' || key === '+or') {
        parts.push(this.#group(key, value, depth))
        continue
      }
      if (key.startsWith('+')) throw fail(`Unknown operator ${key}`)
      parts.push(this.#fieldCondition(key, value))
    }
    if (parts.length === 0) return undefined
    return balanced(parts, sql` and `)
  }

  #group(op: '+and' | '+or', value: unknown, depth: number): RawBuilder<SqlBool> {
    if (!Array.isArray(value) || value.length === 0) throw fail(`${op} must be a non-empty array of filters`)
    const parts: RawBuilder<SqlBool>[] = []
    for (const item of value) {
      if (!isPlainObject(item)) throw fail(`${op} must be a non-empty array of filters`)
      const part = this.conditions(item, depth + 1, false)
      // An empty object places no condition: true inside +and, and it makes +or always true.
      parts.push(part ?? sql<SqlBool>`1 = 1`)
    }
    return balanced(parts, op === '+and' ? sql` and ` : sql` or `)
  }

  #field(name: string): FilterField {
    const field = Object.hasOwn(this.#spec, name) ? this.#spec[name] : undefined
    if (field === undefined) throw fail(`Cannot filter on ${name}`)
    return field
  }

  #fieldCondition(name: string, value: unknown): RawBuilder<SqlBool> {
    const field = this.#field(name)
    if (++this.#terms > MAX_FILTER_TERMS) throw fail('X-Filter has too many conditions')
    const column = sql.ref(field.column)
    const scoped = (operand: unknown, condition: RawBuilder<SqlBool>) => {
      const scope = field.scope?.(operand)
      return scope ? sql<SqlBool>`(${scope} and ${condition})` : condition
    }
    if (!isPlainObject(value)) {
      if (value === null) return sql<SqlBool>`${column} is null`
      return scoped(value, sql<SqlBool>`${column} = ${this.#param(name, field, value)}`)
    }
    const ops = Object.entries(value)
    if (ops.length === 0) throw fail(`Filter for ${name} has no operator`)
    const parts: RawBuilder<SqlBool>[] = []
    for (const [op, operand] of ops) {
      if (op === '+neq') {
        if (operand === null) {
          parts.push(sql<SqlBool>`${column} is not null`)
          continue
        }
        const scope = field.scope?.(operand)
        const differs = sql<SqlBool>`${column} <> ${this.#param(name, field, operand)}`
        parts.push(scope ? sql<SqlBool>`(${differs} or not (${scope}))` : differs)
      } else if (op === '+contains') {
        if (field.type !== 'string') throw fail(`+contains cannot be used on ${name}`)
        if (typeof operand !== 'string') throw fail(`+contains on ${name} needs a string`)
        if (++this.#contains > MAX_CONTAINS_TERMS) {
          throw fail(`X-Filter may use +contains at most ${MAX_CONTAINS_TERMS} times`)
        }
        const needle = this.#value(name, field, operand)
        parts.push(
          this.#dialect === 'postgres'
            ? sql<SqlBool>`strpos(${column}, ${needle}) > 0`
            : sql<SqlBool>`instr(${column}, ${needle}) > 0`,
        )
      } else if (Object.hasOwn(COMPARISONS, op)) {
        if (field.type === 'boolean') throw fail(`${op} cannot be used on ${name}`)
        if (field.type === 'integer' && typeof operand !== 'number')
          throw fail(`${op} on ${name} needs a number`)
        if (operand === null || typeof operand === 'object') throw fail(`${op} on ${name} needs a value`)
        const operator = sql.raw(COMPARISONS[op as keyof typeof COMPARISONS])
        parts.push(scoped(operand, sql<SqlBool>`${column} ${operator} ${this.#param(name, field, operand)}`))
      } else {
        throw fail(`Unknown operator ${op}`)
      }
    }
    return balanced(parts, sql` and `)
  }

  /**
   * The value as a parameter. PostgreSQL types a parameter after the column it meets, so an
   * integer beyond a 32-bit column's range would be an error there: integers go in as bigint.
   */
  #param(name: string, field: FilterField, value: unknown): RawBuilder<unknown> {
    const checked = this.#value(name, field, value)
    if (field.type === 'integer' && this.#dialect === 'postgres') return sql`cast(${checked} as bigint)`
    // Behind a unary plus SQLite's planner does not look at the bound value (see stableSlot in
    // db/prepared.ts), and the column's index is used all the same.
    return this.#dialect === 'sqlite' ? sql`+${checked}` : sql`${checked}`
  }

  /** Checks a value against the field's type, so the database never sees one it would reject. */
  #value(name: string, field: FilterField, value: unknown): unknown {
    if (field.parse) {
      const parsed = field.parse(value)
      if (parsed === undefined) throw fail(`Invalid value for ${name}`)
      return parsed
    }
    switch (field.type) {
      case 'integer':
        if (typeof value !== 'number' || !Number.isSafeInteger(value))
          throw fail(`${name} must be an integer`)
        return value
      case 'boolean':
        if (typeof value !== 'boolean') throw fail(`${name} must be true or false`)
        return value
      case 'timestamp': {
        const ts = typeof value === 'string' ? parseTimestamp(value) : undefined
        if (ts === undefined) throw fail(`${name} must be a date-time (YYYY-MM-DDTHH:MM:SS)`)
        return ts
      }
      case 'string':
        if (typeof value !== 'string') throw fail(`${name} must be a string`)
        if (value.includes('\u0000')) throw fail(`${name} must not contain NUL characters`)
        return value
    }
  }

  /**
   * The same order on both engines: byte order for text (PostgreSQL would otherwise use the
   * database's locale) and NULLs first when ascending, as SQLite does. Said with `nulls first` or
   * `last` rather than an `is null` term, so that an index in that order serves it.
   */
  #orderExpression(
    field: FilterField,
    direction: 'asc' | 'desc',
  ): { expression: RawBuilder<unknown>; nulls?: 'first' | 'last' } {
    const column = sql.ref(field.column)
    if (this.#dialect !== 'postgres') return { expression: column }
    const expression = field.type === 'string' ? sql`${column} collate "C"` : column
    if (!field.nullable) return { expression }
    return { expression, nulls: direction === 'asc' ? 'first' : 'last' }
  }
}
