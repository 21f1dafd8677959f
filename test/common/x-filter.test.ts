import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import fc from 'fast-check'
import type { Kysely } from 'kysely'
import { ApiError } from '../../src/common/errors.ts'
import { orderSql } from '../../src/common/pagination.ts'
import {
  compileFilter,
  type FilterSpec,
  MAX_CONTAINS_TERMS,
  MAX_FILTER_DEPTH,
} from '../../src/common/x-filter.ts'
import { dialectOf } from '../../src/db/dialects/dialect.ts'
import { useTestApp } from '../helpers/app.ts'
import { createTestDatabase, type TestDatabase } from '../helpers/dialects.ts'
import { bearer, createAccount, type TestUser } from '../helpers/factories.ts'

/**
 * The X-Filter compiler against a reference evaluation in JS: random rows, random filters, and the
 * rows SQL returns (in order) must be exactly the rows the reference keeps, on both engines.
 */
interface Item {
  id: number
  label: string
  size: number | null
  active: boolean
  created: string
}

const SPEC: FilterSpec = {
  id: { column: 'items.id', type: 'integer' },
  label: { column: 'items.label', type: 'string' },
  size: { column: 'items.size', type: 'integer', nullable: true },
  active: { column: 'items.active', type: 'boolean' },
  created: { column: 'items.created', type: 'timestamp' },
}

type Json = null | boolean | number | string | Json[] | { [k: string]: Json }

const DATES = ['2024-01-01T00:00:00', '2024-01-01T12:30:00', '2024-02-29T23:59:59', '2025-06-15T08:00:00']

function compare(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/** SQL semantics: comparisons with NULL are never true; +and/+or are monotone, so NULL acts as false. */
function matches(row: Item, filter: Record<string, Json>): boolean {
  return Object.entries(filter).every(([key, value]) => {
    if (key === '+order_by' || key === '+order') return true
    if (key === '+and') return (value as Record<string, Json>[]).every((f) => matches(row, f))
    if (key === '+or') return (value as Record<string, Json>[]).some((f) => matches(row, f))
    const cell = row[key as keyof Item] as string | number | boolean | null
    if (value === null) return cell === null
    if (typeof value !== 'object' || Array.isArray(value)) return cell !== null && cell === value
    return Object.entries(value).every(([op, operand]) => {
      // Every operator is false on NULL, `+neq` included: SQL's `NULL <> x` is NULL, not true.
      if (cell === null) return false
      switch (op) {
        case '+neq':
          return operand === null ? true : cell !== operand
        case '+contains':
          return String(cell).includes(operand as string)
        case '+gt':
          return compare(cell as string | number, operand as string | number) > 0
        case '+gte':
          return compare(cell as string | number, operand as string | number) >= 0
        case '+lt':
          return compare(cell as string | number, operand as string | number) < 0
        case '+lte':
          return compare(cell as string | number, operand as string | number) <= 0
        default:
          throw new Error(op)
      }
    })
  })
}

const itemArb = fc.record({
  label: fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A', '-', '1'), maxLength: 4 }),
  size: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }),
  active: fc.boolean(),
  created: fc.constantFrom(...DATES),
})

const leafArb: fc.Arbitrary<Record<string, Json>> = fc.oneof(
  fc.record({ id: fc.integer({ min: 0, max: 40 }) }),
  fc.record({ label: fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'A'), maxLength: 2 }) }),
  fc.record({ size: fc.option(fc.integer({ min: -3, max: 3 }), { nil: null }) }),
  fc.record({ active: fc.boolean() }),
  fc.record({ created: fc.constantFrom(...DATES) }),
  fc
    .tuple(
      fc.constantFrom('id', 'size'),
      fc.constantFrom('+gt', '+gte', '+lt', '+lte', '+neq'),
      fc.integer({ min: -3, max: 40 }),
    )
    .map(([field, op, v]) => ({ [field]: { [op]: v } })),
  fc
    .tuple(fc.constantFrom('+gt', '+gte', '+lt', '+lte', '+neq'), fc.constantFrom(...DATES))
    .map(([op, v]) => ({ created: { [op]: v } })),
  fc
    .string({ unit: fc.constantFrom('a', 'b', 'c'), maxLength: 2 })
    .map((v) => ({ label: { '+contains': v } })),
  fc.constant({ size: { '+neq': null } }),
)

const filterArb: fc.Arbitrary<Record<string, Json>> = fc.letrec<{ node: Record<string, Json> }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leafArb,
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((items) => ({ '+and': items })),
    fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((items) => ({ '+or': items })),
  ),
})).node

const orderArb = fc.option(
  fc.record({
    '+order_by': fc.constantFrom('id', 'label', 'size', 'created', 'active'),
    '+order': fc.constantFrom('asc', 'desc'),
  }),
  { nil: undefined },
)

function referenceOrder(rows: Item[], order: { '+order_by': string; '+order': string } | undefined): Item[] {
  const sorted = [...rows]
  sorted.sort((a, b) => {
    if (order) {
      const field = order['+order_by'] as keyof Item
      const x = a[field]
      const y = b[field]
      const desc = order['+order'] === 'desc'
      if (x !== y) {
        // NULLs first ascending, last descending (SQLite's rule, which the compiler imposes on PostgreSQL).
        if (x === null) return desc ? 1 : -1
        if (y === null) return desc ? -1 : 1
        const c = compare(x === true ? 1 : x === false ? 0 : x, y === true ? 1 : y === false ? 0 : y)
        return desc ? -c : c
      }
    }
    return a.id - b.id
  })
  return sorted
}

describe('X-Filter compiler', () => {
  let database: TestDatabase
  // biome-ignore lint/suspicious/noExplicitAny: a scratch table outside the app's schema type
  let db: Kysely<any>

  before(async () => {
    database = await createTestDatabase()
    db = database.db
    await db.schema
      .createTable('items')
      .addColumn('id', 'integer', (c) => c.primaryKey())
      .addColumn('label', 'text', (c) => c.notNull())
      .addColumn('size', 'integer')
      .addColumn('active', 'boolean', (c) => c.notNull())
      .addColumn('created', 'timestamp', (c) => c.notNull())
      .execute()
  })
  after(async () => {
    await database.db.destroy()
    await database.drop()
  })

  async function runSql(filter: Record<string, Json>): Promise<number[]> {
    const compiled = compileFilter(JSON.stringify(filter), SPEC, dialectOf(db))
    let query = db.selectFrom('items').select('items.id')
    if (compiled.where) query = query.where(compiled.where)
    if (compiled.order) {
      query = query.orderBy(orderSql(compiled.order))
    }
    const rows = await query.orderBy('items.id').execute()
    return rows.map((r: { id: number }) => r.id)
  }

  it('matches a reference evaluation on random data and random filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(itemArb, { minLength: 0, maxLength: 25 }),
        filterArb,
        orderArb,
        async (items, filter, order) => {
          const rows: Item[] = items.map((item, i) => ({ id: i + 1, ...item }))
          await db.deleteFrom('items').execute()
          if (rows.length > 0) await db.insertInto('items').values(rows).execute()
          const full = order ? { ...filter, ...order } : filter
          const expected = referenceOrder(
            rows.filter((r) => matches(r, filter)),
            order,
          ).map((r) => r.id)
          assert.deepEqual(await runSql(full), expected, JSON.stringify(full))
        },
      ),
      { numRuns: 150 },
    )
  })

  const refuse = (header: string, reason: string) => {
    assert.throws(
      () => compileFilter(header, SPEC, 'sqlite'),
      (e: unknown) =>
        e instanceof ApiError &&
        e.status === 400 &&
        e.errors[0]?.reason === reason &&
        e.errors[0]?.field === 'X-Filter',
      header,
    )
  }

  it('refuses what it cannot compile, with a reason on field X-Filter', () => {
    refuse('{"nope":1}', 'Cannot filter on nope')
    refuse('{"+order_by":"nope"}', 'Cannot filter on nope')
    refuse('{"__proto__":1}', 'Cannot filter on __proto__')
    refuse('{"label":{"+gt":{"x":1}}}', '+gt on label needs a value')
    refuse('{"id":1.5}', 'id must be an integer')
    refuse('{"id":9007199254740993}', 'id must be an integer')
    refuse('{"label":{"+contains":1}}', '+contains on label needs a string')
    refuse('{"size":{"+contains":"1"}}', '+contains cannot be used on size')
    refuse('{"active":{"+gt":true}}', '+gt cannot be used on active')
    refuse('{"label":{}}', 'Filter for label has no operator')
    refuse('{"+or":[1]}', '+or must be a non-empty array of filters')
    refuse('{"+or":[]}', '+or must be a non-empty array of filters')
    refuse('{"+and":[{"+order_by":"id"}]}', '+order_by is only allowed at the top level of X-Filter')
    refuse('{"created":"2024-02-30T00:00:00"}', 'created must be a date-time (YYYY-MM-DDTHH:MM:SS)')
    // Year 0 does not exist in a timestamp (PostgreSQL refuses it).
    refuse('{"created":{"+gt":"0000-01-01T00:00:00"}}', 'created must be a date-time (YYYY-MM-DDTHH:MM:SS)')
    refuse('{"label":"a\\u0000"}', 'label must not contain NUL characters')
  })

  it('nests +and/+or to any reasonable depth and refuses absurd nesting before SQL sees it', async () => {
    let nested: Record<string, Json> = { id: 1 }
    for (let i = 0; i < 40; i++) nested = { [i % 2 ? '+and' : '+or']: [nested, { id: 1 }] }
    await db.deleteFrom('items').execute()
    await db
      .insertInto('items')
      .values({ id: 1, label: 'x', size: null, active: true, created: DATES[0] })
      .execute()
    assert.deepEqual(await runSql(nested), [1])
    let deep: Record<string, Json> = { id: 1 }
    for (let i = 0; i <= MAX_FILTER_DEPTH + 1; i++) deep = { '+and': [deep] }
    refuse(JSON.stringify(deep), 'X-Filter is nested too deeply')
  })

  it('an empty or absent header filters nothing', () => {
    assert.deepEqual(compileFilter(undefined, SPEC, 'sqlite'), { where: undefined, order: undefined })
    assert.deepEqual(compileFilter('  ', SPEC, 'sqlite'), { where: undefined, order: undefined })
    assert.equal(compileFilter('{}', SPEC, 'sqlite').where, undefined)
  })
})

describe('X-Filter limits through the API', () => {
  const api = useTestApp()
  let owner: TestUser

  before(async () => {
    owner = await createAccount(api)
  })

  const listVpcs = (filter: unknown) =>
    api.request({
      method: 'GET',
      url: '/v4/vpcs',
      headers: { ...bearer(owner.token), 'x-filter': JSON.stringify(filter) },
    })

  it('runs a long +or, which a flat chain of terms would take past the engine expression depth', async () => {
    const terms = Array.from({ length: 1000 }, (_, i) => ({ id: i + 1 }))
    const response = await listVpcs({ '+or': terms })
    assert.equal(response.status, 200)
    assert.equal(response.body.results, 0)
  })

  it('runs many fields in one object and a long +and', async () => {
    const terms = Array.from({ length: 999 }, () => ({ label: { '+neq': 'x' } }))
    assert.equal((await listVpcs({ '+and': terms })).status, 200)
  })

  it(`refuses more than ${MAX_CONTAINS_TERMS} +contains terms`, async () => {
    const ok = Array.from({ length: MAX_CONTAINS_TERMS }, (_, i) => ({ label: { '+contains': `a${i}` } }))
    assert.equal((await listVpcs({ '+or': ok })).status, 200)
    const response = await listVpcs({ '+or': [...ok, { label: { '+contains': 'one more' } }] })
    assert.equal(response.status, 400)
    assert.deepEqual(response.body, {
      errors: [
        { reason: `X-Filter may use +contains at most ${MAX_CONTAINS_TERMS} times`, field: 'X-Filter' },
      ],
    })
  })
})
