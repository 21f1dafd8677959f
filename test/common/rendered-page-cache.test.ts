import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { RenderedPageCache, renderedPagesOf } from '../../src/common/rendered-page-cache.ts'

describe('rendered page cache', () => {
  it('gives a page back only for its stamp, and within its time', () => {
    const cache = new RenderedPageCache()
    const body = cache.set('k', '{"a":1}', {
      stamp: 3,
      from: '2026-01-01T00:00:00',
      until: '2026-01-02T00:00:00',
    })
    assert.equal(body.toString(), '{"a":1}')
    assert.equal(cache.get('k', 3, '2026-01-01T12:00:00'), body)
    assert.equal(cache.get('k', 4, '2026-01-01T12:00:00'), undefined, 'the counter moved')
    assert.equal(cache.get('k', 3, '2025-12-31T23:59:59'), undefined, 'before it was rendered')
    assert.equal(cache.get('k', 3, '2026-01-02T00:00:00'), undefined, 'from its first expiry on')
    assert.equal(cache.get('other', 3, '2026-01-01T12:00:00'), undefined)
  })

  it('starts over past its bound, and keeps each database’s pages apart', () => {
    const cache = new RenderedPageCache()
    for (let i = 0; i < 2000; i++) cache.set(`k${i}`, '[]', { stamp: 1 })
    assert.ok(cache.get('k0', 1))
    cache.set('k2000', '[]', { stamp: 1 })
    assert.equal(cache.get('k0', 1), undefined)
    assert.ok(cache.get('k2000', 1))
    const a = {}
    const b = {}
    renderedPagesOf(a, 'tokens').set('k', 'a', { stamp: 1 })
    assert.equal(renderedPagesOf(b, 'tokens').get('k', 1), undefined)
    assert.equal(renderedPagesOf(a, 'images').get('k', 1), undefined)
    assert.equal(renderedPagesOf(a, 'tokens').get('k', 1)?.toString(), 'a')
  })
})
