import assert from 'node:assert/strict'

/**
 * `value`, failing the test when it is missing: for an item the test just made (`list[0]`, a device
 * slot) where the type allows none. Unlike `?.`, a missing value cannot slip into a request.
 */
export function defined<T>(value: T | null | undefined, what = 'value'): T {
  assert.ok(value !== undefined && value !== null, `expected a ${what}`)
  return value
}
