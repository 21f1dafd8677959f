import type { FastifyInstance, FastifyRequest, onRouteHookHandler } from 'fastify'
import fp from 'fastify-plugin'
import { validationFailed } from '../common/errors.ts'
import { schemaErrorsToItems } from '../common/validation.ts'

type Schema = Record<string, unknown>
/** The JSON pointer of the first array longer than its schema allows, with that bound. */
type Check = (value: unknown, pointer: string) => { pointer: string; limit: number } | undefined

/**
 * Checks each array of a body against its `maxItems` before schema validation: validation reports
 * every failure, so an oversized array of wrong items would cost work (and an error list)
 * proportional to the body. Over its bound, the request gets that one error at once.
 */
export function arrayBoundsCheck(schema: unknown): Check | undefined {
  if (schema === null || typeof schema !== 'object') return undefined
  const s = schema as Schema
  const checks: Check[] = []
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    for (const branch of (s[key] as unknown[] | undefined) ?? []) {
      const check = arrayBoundsCheck(branch)
      if (check) checks.push(check)
    }
  }
  // A nullable array is `type: ['array', 'null']`.
  if (s.type === 'array' || (Array.isArray(s.type) && s.type.includes('array'))) checks.push(arrayCheck(s))
  if (s.properties !== undefined && typeof s.properties === 'object') checks.push(...propertyChecks(s))
  if (checks.length === 0) return undefined
  if (checks.length === 1) return checks[0]
  return (value, pointer) => {
    for (const check of checks) {
      const failure = check(value, pointer)
      if (failure) return failure
    }
    return undefined
  }
}

function arrayCheck(s: Schema): Check {
  const limit = typeof s.maxItems === 'number' ? s.maxItems : undefined
  const item = arrayBoundsCheck(s.items)
  return (value, pointer) => {
    if (!Array.isArray(value)) return undefined
    if (limit !== undefined && value.length > limit) return { pointer, limit }
    if (item === undefined) return undefined
    for (let i = 0; i < value.length; i++) {
      const failure = item(value[i], `${pointer}/${i}`)
      if (failure) return failure
    }
    return undefined
  }
}

function propertyChecks(s: Schema): Check[] {
  const checks: Check[] = []
  for (const [name, property] of Object.entries(s.properties as Schema)) {
    const check = arrayBoundsCheck(property)
    if (check === undefined) continue
    const escaped = name.replace(/~/g, '~0').replace(/\//g, '~1')
    checks.push((value, pointer) =>
      value !== null && typeof value === 'object' && !Array.isArray(value) && Object.hasOwn(value, name)
        ? check((value as Schema)[name], `${pointer}/${escaped}`)
        : undefined,
    )
  }
  return checks
}

function guard(check: Check) {
  return async (request: FastifyRequest) => {
    const failure = check(request.body, '')
    if (failure === undefined) return
    const error = { instancePath: failure.pointer, keyword: 'maxItems', params: { limit: failure.limit } }
    throw validationFailed(schemaErrorsToItems([error], 'body'))
  }
}

async function arrayBoundsPlugin(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    const check = arrayBoundsCheck(route.schema?.body)
    if (check === undefined) return
    const existing = route.preValidation
    const hooks = existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]
    route.preValidation = [
      ...hooks,
      guard(check) as unknown as onRouteHookHandler,
    ] as typeof route.preValidation
  })
}

export const arrayBounds = fp(arrayBoundsPlugin, { name: 'array-bounds' })
