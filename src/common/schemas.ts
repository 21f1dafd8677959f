import { type Static, type TSchema, Type } from 'typebox'

/**
 * Shared schema primitives. Route modules build their request and response schemas from these so
 * that validation, TypeScript types, serialization and the OpenAPI document come from one place.
 */

/** `T | null`, written as a JSON Schema type array (cheaper to serialize than anyOf). */
export function Nullable<T extends TSchema>(schema: T, options: Record<string, unknown> = {}) {
  const { type, enum: values, ...rest } = schema as unknown as { type?: string | string[]; enum?: unknown[] }
  const types = Array.isArray(type) ? type : type === undefined ? [] : [type]
  return Type.Unsafe<Static<T> | null>({
    ...rest,
    ...options,
    type: [...types, 'null'],
    ...(values && { enum: [...values, null] }),
  })
}

export const TimestampSchema = Type.String({
  description: 'UTC date-time, `YYYY-MM-DDTHH:MM:SS`',
  examples: ['2024-01-01T00:00:00'],
})

/** An id in a body: beyond 2^53 - 1 nothing can exist, and PostgreSQL's bigint would overflow. */
export const IdSchema = Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER })

/**
 * A numeric path parameter. Kept a string with a canonical-integer pattern so that `+5`, `5.0` and
 * `05` do not match; parseId turns it into a number.
 */
export const IdParamSchema = Type.String({ pattern: '^[1-9][0-9]{0,15}$' })

/** A taggable resource's tags, as a request gives them: each name 3-50 characters, 100 at most. */
export const TagsSchema = Type.Array(Type.String({ minLength: 3, maxLength: 50 }), { maxItems: 100 })

export const ErrorItemSchema = Type.Object({
  reason: Type.String(),
  field: Type.Optional(Type.String()),
})

export const ErrorBodySchema = Type.Object(
  { errors: Type.Array(ErrorItemSchema) },
  { $id: 'ErrorBody', description: 'Error envelope' },
)
export type ErrorBody = Static<typeof ErrorBodySchema>

/** Spread into a route's `response` so every documented failure uses the envelope. */
export const errorResponses = {
  400: Type.Ref('ErrorBody'),
  401: Type.Ref('ErrorBody'),
  403: Type.Ref('ErrorBody'),
  404: Type.Ref('ErrorBody'),
}

export const EmptyObjectSchema = Type.Object({}, { additionalProperties: false })

export const PageQuerySchema = Type.Object({
  page: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'page number, at least 1' })),
  page_size: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'items per page, 25 to 500' })),
})
export type PageQuery = Static<typeof PageQuerySchema>

/** How the OpenAPI document shows the page query: integers, with their bounds and defaults. */
export const PAGE_QUERY_DOCUMENTED = {
  page: Type.Optional(Type.Integer({ minimum: 1, default: 1, description: 'page number, at least 1' })),
  page_size: Type.Optional(
    Type.Integer({ minimum: 25, maximum: 500, default: 100, description: 'items per page, 25 to 500' }),
  ),
}

export function Page<T extends TSchema>(item: T) {
  return Type.Object({
    data: Type.Array(item),
    page: Type.Integer(),
    pages: Type.Integer(),
    results: Type.Integer(),
  })
}

export interface PageResult<T> {
  data: T[]
  page: number
  pages: number
  results: number
}

/** The X-Filter header, documented on every list route that accepts it. */
export const FilterHeadersSchema = Type.Object({
  'x-filter': Type.Optional(Type.String({ description: 'JSON filter and ordering (see API docs)' })),
})
