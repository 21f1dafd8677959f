import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import { ApiError } from '../../src/common/errors.ts'
import { pageWindow, parsePageQuery } from '../../src/common/pagination.ts'

describe('pagination maths', () => {
  it('defaults to page 1 of 100', () => {
    assert.deepEqual(parsePageQuery({}), { page: 1, pageSize: 100 })
    assert.deepEqual(parsePageQuery(undefined), { page: 1, pageSize: 100 })
  })

  it('accepts the bounds and refuses everything outside them', () => {
    assert.deepEqual(parsePageQuery({ page: '3', page_size: '25' }), { page: 3, pageSize: 25 })
    assert.deepEqual(parsePageQuery({ page_size: '500' }), { page: 1, pageSize: 500 })
    for (const query of [
      { page: '0' },
      { page: '-1' },
      { page: '1.5' },
      { page: '01' },
      { page_size: '24' },
      { page_size: '501' },
    ]) {
      assert.throws(() => parsePageQuery(query), ApiError, JSON.stringify(query))
    }
  })

  it('empty lists are page 1 of 1', () => {
    assert.deepEqual(pageWindow(0, { page: 7, pageSize: 25 }), { page: 1, pages: 1, offset: 0, limit: 25 })
  })

  it('every item is on exactly one page, and a page past the end is the last page', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 5000 }),
        fc.integer({ min: 25, max: 500 }),
        fc.integer({ min: 1, max: 1000 }),
        (results, pageSize, page) => {
          const w = pageWindow(results, { page, pageSize })
          assert.equal(w.pages, Math.max(1, Math.ceil(results / pageSize)))
          assert.equal(w.page, Math.min(page, w.pages))
          assert.equal(w.offset, (w.page - 1) * pageSize)
          assert.ok(w.offset <= Math.max(0, results - 1) || results === 0)
          const onPage = Math.max(0, Math.min(pageSize, results - w.offset))
          if (w.page < w.pages) assert.equal(onPage, pageSize)
          if (results > 0) assert.ok(onPage > 0)
        },
      ),
    )
  })
})
