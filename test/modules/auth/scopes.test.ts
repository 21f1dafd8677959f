import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import fc from 'fast-check'
import {
  formatScopes,
  hasScope,
  isWithin,
  parseScopes,
  SCOPE_CATEGORIES,
} from '../../../src/modules/auth/scopes.ts'

describe('OAuth scopes', () => {
  it('parses scope lists, * and refuses anything unknown', () => {
    assert.equal(formatScopes(parseScopes('*') as never), '*')
    assert.equal(
      formatScopes(parseScopes('vpc:read_write  images:read_only') as never),
      'images:read_only vpc:read_write',
    )
    assert.equal(
      formatScopes(parseScopes('images:read_only,images:read_write') as never),
      'images:read_write',
    )
    for (const bad of [
      '',
      ' ',
      'vpc',
      'vpc:admin',
      'linodes:read_only',
      '* vpc:read_only',
      'vpc:read_only:x',
    ]) {
      assert.equal(parseScopes(bad), undefined, bad)
    }
  })

  it('read_write satisfies read_only and * satisfies everything', () => {
    const rw = parseScopes('images:read_write') as never
    assert.ok(hasScope(rw, 'images:read_only'))
    assert.ok(hasScope(rw, 'images:read_write'))
    assert.ok(!hasScope(rw, 'computes:read_only'))
    const ro = parseScopes('images:read_only') as never
    assert.ok(!hasScope(ro, 'images:read_write'))
    assert.ok(hasScope(parseScopes('*') as never, 'vpc:read_write'))
  })

  it('a scope set is within another exactly when the other grants each of its scopes', () => {
    const scopeArb = fc
      .uniqueArray(
        fc.tuple(fc.constantFrom(...SCOPE_CATEGORIES), fc.constantFrom('read_only', 'read_write')),
        { selector: ([c]) => c, minLength: 1, maxLength: 5 },
      )
      .map((pairs) => pairs.map(([c, l]) => `${c}:${l}`).join(' '))
    fc.assert(
      fc.property(scopeArb, scopeArb, (a, b) => {
        const inner = parseScopes(a) as never
        const outer = parseScopes(b) as never
        const expected = a.split(' ').every((s) => hasScope(outer, s as never))
        assert.equal(isWithin(inner, outer), expected)
        assert.ok(isWithin(inner, parseScopes('*') as never))
        assert.ok(!isWithin(parseScopes('*') as never, outer))
      }),
    )
  })
})
