import type { FilterFieldType, FilterSpec } from './x-filter.ts'

/**
 * A filter spec whose fields are columns of the same name, written as `{ label: 'string' }`
 * instead of `{ label: { column: 'label', type: 'string' } }`.
 */
export function sameNameColumns(fields: Readonly<Record<string, FilterFieldType>>): FilterSpec {
  return Object.fromEntries(Object.entries(fields).map(([name, type]) => [name, { column: name, type }]))
}
