import type { ErrorItem } from './errors.ts'

/**
 * Turns JSON-Schema (Ajv) validation errors into the API's error items: one per failing field,
 * with dot paths (`ipv4.vpc`, `subnets[1].ipv4`). A schema can carry the real API's wording for a
 * pattern failure in `x-reason`.
 */
export interface SchemaError {
  instancePath: string
  keyword: string
  params: Record<string, unknown>
  parentSchema?: Record<string, unknown>
}

export function fieldPath(instancePath: string, extra?: string): string | undefined {
  const segments = instancePath === '' ? [] : instancePath.slice(1).split('/')
  if (extra !== undefined) segments.push(extra)
  let path = ''
  for (const raw of segments) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    if (/^[0-9]+$/.test(segment)) path += `[${segment}]`
    else path += path === '' ? segment : `.${segment}`
  }
  return path === '' ? undefined : path
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`)

function describeType(type: unknown): string {
  const types = (Array.isArray(type) ? type : String(type).split(',')).map(String)
  const words = types.map((t) =>
    t === 'null' ? 'null' : article(t === 'boolean' ? 'boolean (true or false)' : t),
  )
  return words.join(' or ')
}

function reasonFor(error: SchemaError, name: string): string {
  const schema = error.parentSchema ?? {}
  const params = error.params
  switch (error.keyword) {
    case 'required':
      return `${name} is required`
    case 'type':
      return `${name} must be ${describeType(params.type)}`
    case 'minLength':
    case 'maxLength': {
      const min = schema.minLength as number | undefined
      const max = schema.maxLength as number | undefined
      if (min !== undefined && max !== undefined) return `${name} must be ${min}-${max} characters`
      if (max !== undefined) return `${name} must be at most ${max} characters`
      return `${name} must be at least ${min} characters`
    }
    case 'pattern':
      return (schema['x-reason'] as string | undefined) ?? `${name} is invalid`
    case 'enum':
      return `${name} must be one of: ${(params.allowedValues as unknown[]).map(String).join(', ')}`
    case 'minimum':
      return `${name} must be at least ${String(params.limit)}`
    case 'maximum':
      return `${name} must be at most ${String(params.limit)}`
    case 'minItems':
      return `${name} must have at least ${String(params.limit)} items`
    case 'maxItems':
      return `${name} must have at most ${String(params.limit)} items`
    case 'uniqueItems':
      return `${name} must not contain duplicates`
    case 'format':
      return (schema['x-reason'] as string | undefined) ?? `${name} must be a valid ${String(params.format)}`
    case 'additionalProperties':
      return `${String(params.additionalProperty)} is not an allowed field`
    default:
      return (schema['x-reason'] as string | undefined) ?? `${name} is invalid`
  }
}

/** `label` for `label`, `ipv4` for `subnets[1].ipv4`, the whole path when it ends in an index. */
function displayName(field: string): string {
  if (field.endsWith(']')) return field
  return field.slice(field.lastIndexOf('.') + 1)
}

/** The most error items one answer carries: enough to fix a request, too few to amplify one. */
export const MAX_ERROR_ITEMS = 100

export function schemaErrorsToItems(errors: readonly SchemaError[], context: string): ErrorItem[] {
  const items: ErrorItem[] = []
  const seen = new Set<string>()
  for (const error of errors) {
    if (items.length === MAX_ERROR_ITEMS) break
    // anyOf/oneOf summaries repeat what their branches already said.
    if (error.keyword === 'anyOf' || error.keyword === 'oneOf' || error.keyword === 'if') continue
    const extra = error.keyword === 'required' ? String(error.params.missingProperty) : undefined
    const field = fieldPath(error.instancePath, extra)
    const item: ErrorItem =
      field === undefined
        ? { reason: context === 'body' ? 'Request body must be a JSON object' : `Invalid ${context}` }
        : { field, reason: reasonFor(error, displayName(field)) }
    const key = `${item.field ?? ''}\u0000${item.reason}`
    if (!seen.has(key)) {
      seen.add(key)
      items.push(item)
    }
  }
  return items
}
