import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { ApiError } from '../../src/common/errors.ts'
import type { FilterSpec } from '../../src/common/x-filter.ts'
import { listCriteria } from '../../src/db/list-criteria.ts'
import { createTestDatabase } from '../helpers/dialects.ts'

const { db } = await createTestDatabase()
const spec: FilterSpec = { label: { column: 't.label', type: 'string' } }
const render = (raw: RawBuilder<unknown> | undefined) => (raw ? raw.compile(db).sql : undefined)
const order = (criteria: ReturnType<typeof listCriteria>) =>
  criteria.order.map((term) => `${render(term.expression)} ${term.direction}`)

describe('list criteria', () => {
  it('orders by the unique column alone without a filter', () => {
    const c = listCriteria({ filter: undefined, spec, dialect: 'sqlite', order: { unique: 't.id' } })
    assert.equal(c.where, undefined)
    assert.deepEqual(order(c), ['"t"."id" asc'])
  })

  it("puts the filter's order first and lets the unique column follow its direction", () => {
    const c = listCriteria({
      filter: '{"+order_by":"label","+order":"desc"}',
      spec,
      dialect: 'sqlite',
      order: { unique: 't.id', after: [{ expression: sql.ref('t.position'), direction: 'asc' }] },
    })
    assert.deepEqual(order(c), ['"t"."label" desc', '"t"."position" asc', '"t"."id" desc'])
    const fixed = listCriteria({
      filter: '{"+order_by":"label","+order":"desc"}',
      spec,
      dialect: 'sqlite',
      order: { unique: 't.id', uniqueFollowsFilter: false },
    })
    assert.deepEqual(order(fixed), ['"t"."label" desc', '"t"."id" asc'])
  })

  it('keeps the default direction when the filter does not order', () => {
    const c = listCriteria({
      filter: '{"label":"a"}',
      spec,
      dialect: 'sqlite',
      order: { unique: 't.id', direction: 'desc' },
    })
    assert.deepEqual(order(c), ['"t"."id" desc'])
  })

  it('joins the filter and the restriction with and', () => {
    const restriction = sql<SqlBool>`t.id in (1)`
    const c = listCriteria({
      filter: '{"label":"a"}',
      spec,
      dialect: 'sqlite',
      restriction,
      order: { unique: 't.id' },
    })
    assert.match(render(c.where) ?? '', /^\(.*label.* and t\.id in \(1\)\)$/)
    const only = listCriteria({
      filter: undefined,
      spec,
      dialect: 'sqlite',
      restriction,
      order: { unique: 't.id' },
    })
    assert.equal(render(only.where), 't.id in (1)')
  })

  it('refuses a field the list cannot filter on', () => {
    assert.throws(
      () => listCriteria({ filter: '{"nope":1}', spec, dialect: 'sqlite', order: { unique: 't.id' } }),
      (error) => error instanceof ApiError && error.errors[0]?.field === 'X-Filter',
    )
  })
})
