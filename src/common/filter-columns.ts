import type { FilterField, FilterFieldType, FilterSpec } from './x-filter.ts'

/** A list's filterable fields, named by their type. */
export type FieldsByType = { readonly [T in FilterFieldType]?: readonly string[] }

export interface FieldOptions {
  /** The column of a field: the field's own name unless said (`volumes.${field}` for a joined list). */
  column?: (field: string) => string
  /** Fields whose column may hold NULL. */
  nullable?: readonly string[]
  /** Fields that filter but cannot order the list. */
  unordered?: readonly string[]
}

/**
 * A filter spec written by type, `filterFields({ integer: ['id', 'size'], string: ['label'] })`,
 * instead of `{ id: { column: 'id', type: 'integer' }, … }` field by field.
 */
export function filterFields(byType: FieldsByType, options: FieldOptions = {}): FilterSpec {
  const { column = (field: string) => field, nullable = [], unordered = [] } = options
  const spec: Record<string, FilterField> = {}
  for (const [type, fields] of Object.entries(byType) as Array<[FilterFieldType, readonly string[]]>) {
    for (const field of fields) {
      spec[field] = {
        column: column(field),
        type,
        ...(nullable.includes(field) && { nullable: true }),
        ...(unordered.includes(field) && { orderable: false }),
      }
    }
  }
  const unknown = [...nullable, ...unordered].filter((field) => !Object.hasOwn(spec, field))
  if (unknown.length > 0) throw new Error(`no filterable field ${unknown.join(', ')}`)
  return spec
}
