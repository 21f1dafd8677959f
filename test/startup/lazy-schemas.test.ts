import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { lazySerializers } from '../../src/startup/lazy-schemas.ts'

/** A response schema that fast-json-stringify refuses when it builds the serializer. */
const broken = { type: 'object', properties: { a: { $ref: 'Missing#' } } }
const route = (url: string) => ({ schema: broken, method: 'PUT', url, httpStatus: '200' }) as never

describe('lazy response serializers', () => {
  it('builds a serializer at its first use, or when its route is compiled ahead', () => {
    const serializers = lazySerializers()
    const build = serializers({}, {})
    const first = build(route('/first'))
    const ahead = build(route('/ahead'))
    // Nothing built yet: the broken schemas have not been looked at.
    serializers.compile('PUT', '/elsewhere')
    assert.throws(() => serializers.compile('PUT', '/ahead'), /Missing/)
    assert.throws(() => (first as (data: unknown) => string)({ a: 1 }), /Missing/)
    assert.throws(() => (ahead as (data: unknown) => string)({ a: 1 }), /Missing/)
  })
})
