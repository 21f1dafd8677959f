import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import fp from 'fastify-plugin'
import type { ErrorItem } from '../common/errors.ts'
import { LATER_KEYS } from './terms.ts'
import { DOCUMENT_VOCABULARY, type Vocabulary } from './vocabulary.ts'
import {
  type FilterFields,
  filterFields,
  fromWire,
  type Plan,
  planOf,
  toWire,
  wireSchema,
} from './wire-plan.ts'
import { filterFromWire } from './x-filter-terms.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The wire vocabulary this app was built with (one per deployment). */
    vocabulary: Vocabulary
  }
  interface FastifyContextConfig {
    /** Filled at registration: what this route translates (see vocabulary.plugin.ts). */
    wire?: RouteWire
  }
}

/** What one route translates between the wire and the domain. */
interface RouteWire {
  body?: Plan
  params?: Plan
  response?: Plan
  filter?: FilterFields
  /** internal body key → wire key, for the `field` of error items. */
  fields: Map<string, string>
}

const translated = new WeakSet<FastifyReply>()

/**
 * Builds every API route in the chosen vocabulary: at registration its path and schemas are
 * derived from the document's through the vocabulary (vocabulary/terms.ts marks the words), and
 * hooks translate what the route receives (body, path parameters, X-Filter) into the domain's
 * words and what it sends into the wire's. With the document's vocabulary only the marks are
 * removed and no hook is added.
 */
async function vocabularyPlugin(
  app: FastifyInstance,
  options: { vocabulary?: Vocabulary; apiPrefixes: readonly string[] },
): Promise<void> {
  const vocabulary = options.vocabulary ?? DOCUMENT_VOCABULARY
  app.decorate('vocabulary', vocabulary)

  app.addHook('onRoute', (route) => {
    const isApi = options.apiPrefixes.includes(route.prefix ?? '')
    if (isApi && route.routePath !== undefined && !vocabulary.identity) {
      route.url = `${route.prefix}${vocabulary.path(route.routePath)}`
      route.path = route.url
    }
    const schema = route.schema as Record<string, unknown> | undefined
    if (schema === undefined) return
    const wire = vocabulary.identity ? undefined : routeWire(vocabulary, schema)
    const ignored = vocabulary.laterFields ? [] : laterKeysOf(schema.body)
    if (ignored.length > 0) route.preValidation = append(route.preValidation, ignoreKeys(ignored))
    route.schema = {
      ...schema,
      ...(schema.body !== undefined && { body: wireSchema(vocabulary, schema.body, false) }),
      ...(schema.params !== undefined && { params: wireSchema(vocabulary, schema.params, false) }),
      ...(schema.response !== undefined && { response: wireSchema(vocabulary, schema.response, true) }),
    }
    if (wire === undefined) return
    route.config = { ...route.config, wire }
    addHooks(route, vocabulary, wire)
  })
}

function routeWire(vocabulary: Vocabulary, schema: Record<string, unknown>): RouteWire | undefined {
  const response = (schema.response as Record<string, unknown> | undefined)?.[200]
  const body = planOf(schema.body)
  const params = planOf(schema.params)
  const responsePlan = planOf(response)
  const items =
    responsePlan?.kind === 'object' && responsePlan.properties.data?.kind === 'array'
      ? responsePlan.properties.data.items
      : undefined
  const filter = items ? filterFields(vocabulary, items) : undefined
  if (!body && !params && !responsePlan) return undefined
  const fields = new Map<string, string>()
  if (body?.kind === 'object' && body.keys) {
    for (const [internal, wire] of Object.entries(vocabulary.keys(body.keys).rename))
      fields.set(internal, wire)
  }
  return {
    ...(body && { body }),
    ...(params && { params }),
    ...(responsePlan && { response: responsePlan }),
    ...(filter && filter.size > 0 && { filter }),
    fields,
  }
}

/** The body's own fields of later versions (`laterKeys`), which the document's version lacks. */
function laterKeysOf(body: unknown): string[] {
  const keys =
    typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[LATER_KEYS] : undefined
  return Array.isArray(keys) ? (keys as string[]) : []
}

/**
 * Removes a body's fields of later versions before validation: the document's version ignores
 * fields it does not know, neither checking nor keeping them (its schema drops them, and
 * validation alone would let them through to the handler).
 */
const ignoreKeys = (keys: string[]) => async (request: FastifyRequest) => {
  const body = request.body
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return
  for (const key of keys) delete (body as Record<string, unknown>)[key]
}

/** A route's hooks of one kind with one more after them. */
function append<T>(existing: T | T[] | undefined, hook: unknown): T[] {
  return [...(existing === undefined ? [] : Array.isArray(existing) ? existing : [existing]), hook as T]
}

function addHooks(route: RouteOptions, vocabulary: Vocabulary, wire: RouteWire): void {
  if (wire.body || wire.params || wire.filter) {
    route.preHandler = append(route.preHandler, async (request: FastifyRequest) => {
      if (wire.body && request.body !== undefined)
        request.body = fromWire(vocabulary, wire.body, request.body)
      if (wire.params) request.params = fromWire(vocabulary, wire.params, request.params)
      const filter = request.headers['x-filter']
      if (wire.filter && typeof filter === 'string') {
        request.headers['x-filter'] = filterFromWire(vocabulary, wire.filter, filter)
      }
    })
  }
  const response = wire.response
  if (response === undefined) return
  route.preSerialization = append(
    route.preSerialization,
    async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (reply.statusCode >= 300) return payload
      translated.add(reply)
      return toWire(vocabulary, response, payload)
    },
  )
  // Lists rendered as JSON text by the database (events) are sent as text: translated here.
  route.onSend = append(
    route.onSend,
    async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
      if (typeof payload !== 'string' || reply.statusCode >= 300 || translated.has(reply)) return payload
      return JSON.stringify(toWire(vocabulary, response, JSON.parse(payload)))
    },
  )
}

/** Error items as sent: the product word in reasons, and body fields by their wire name. */
export function errorItemsToWire(request: FastifyRequest, items: ErrorItem[]): ErrorItem[] {
  const vocabulary = request.server.vocabulary
  if (vocabulary === undefined || vocabulary.identity) return items
  const fields = request.routeOptions?.config?.wire?.fields
  return items.map((item) => {
    const reason = vocabulary.reason(item.reason)
    const field = item.field === undefined ? undefined : (fields?.get(item.field) ?? item.field)
    return field === undefined ? { reason } : { reason, field }
  })
}

export const vocabularyRoutes = fp(vocabularyPlugin, { name: 'vocabulary' })
