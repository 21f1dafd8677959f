import { type KeysKind, LATER_KEYS, TERM, TERM_KEYS, type TermKind } from './terms.ts'
import type { Vocabulary } from './vocabulary.ts'

/**
 * What to translate in one schema's values, found from its marks (terms.ts) when the route is
 * registered: a tree that mirrors the schema, keeping only the branches holding a vocabulary word.
 */
export type Plan =
  | { kind: 'term'; term: TermKind }
  | { kind: 'array'; items: Plan }
  | { kind: 'object'; keys: KeysKind | undefined; properties: Record<string, Plan> }

type Schema = Record<string, unknown>

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The plan of a schema, or undefined when it holds no vocabulary word. */
export function planOf(schema: unknown): Plan | undefined {
  if (!isObject(schema)) return undefined
  const termKind = schema[TERM] as TermKind | undefined
  if (termKind !== undefined) return { kind: 'term', term: termKind }
  const alternatives = (schema.anyOf ?? schema.oneOf ?? schema.allOf) as unknown[] | undefined
  if (Array.isArray(alternatives)) {
    // `Nullable(X)` and unions of objects: the branches' plans merged (null has none).
    return alternatives.map(planOf).reduce<Plan | undefined>((a, b) => merge(a, b), undefined)
  }
  if (schema.items !== undefined) {
    const items = planOf(schema.items)
    return items && { kind: 'array', items }
  }
  if (isObject(schema.properties)) {
    const properties: Record<string, Plan> = {}
    for (const [key, property] of Object.entries(schema.properties)) {
      const plan = planOf(property)
      if (plan) properties[key] = plan
    }
    const keys = schema[TERM_KEYS] as KeysKind | undefined
    if (keys === undefined && Object.keys(properties).length === 0) return undefined
    return { kind: 'object', keys, properties }
  }
  return undefined
}

function merge(a: Plan | undefined, b: Plan | undefined): Plan | undefined {
  if (a === undefined || b === undefined) return a ?? b
  if (a.kind === 'object' && b.kind === 'object') {
    const properties = { ...a.properties }
    for (const [key, plan] of Object.entries(b.properties))
      properties[key] = merge(properties[key], plan) as Plan
    return { kind: 'object', keys: a.keys ?? b.keys, properties }
  }
  return a
}

type ObjectPlan = Extract<Plan, { kind: 'object' }>

/** One way of translating: a term's word, and an object's keys and values. */
interface Direction {
  word(vocabulary: Vocabulary, term: TermKind, value: string): string
  object(vocabulary: Vocabulary, plan: ObjectPlan, value: Record<string, unknown>): Record<string, unknown>
}

/** Walks `value` along `plan` in `direction`; a value not of the plan's kind passes unchanged. */
function translate(vocabulary: Vocabulary, direction: Direction, plan: Plan, value: unknown): unknown {
  switch (plan.kind) {
    case 'term':
      return typeof value === 'string' ? direction.word(vocabulary, plan.term, value) : value
    case 'array':
      return Array.isArray(value) ? value.map((v) => translate(vocabulary, direction, plan.items, v)) : value
    case 'object':
      return isObject(value) ? direction.object(vocabulary, plan, value) : value
  }
}

const TO_WIRE: Direction = {
  word: (vocabulary, term, value) => vocabulary.toWire(term, value),
  object(vocabulary, plan, value) {
    const map = plan.keys ? vocabulary.keys(plan.keys) : undefined
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) {
      const sub = plan.properties[key]
      out[map?.rename[key] ?? key] = sub ? translate(vocabulary, TO_WIRE, sub, v) : v
    }
    if (map === undefined) return out
    for (const extra of map.extra ?? [])
      if (!(extra.key in out)) out[extra.key] = structuredClone(extra.value)
    return map.order ? ordered(out, map.order) : out
  },
}

const FROM_WIRE: Direction = {
  word: (vocabulary, term, value) => vocabulary.fromWire(term, value),
  object(vocabulary, plan, value) {
    const map = plan.keys ? vocabulary.keys(plan.keys) : undefined
    const internal = map ? invert(map.rename) : {}
    const extras = new Set(map?.extra?.map((e) => e.key))
    const out: Record<string, unknown> = {}
    for (const [key, v] of Object.entries(value)) {
      if (extras.has(key)) continue
      const name = internal[key] ?? key
      const sub = plan.properties[name]
      out[name] = sub ? translate(vocabulary, FROM_WIRE, sub, v) : v
    }
    return out
  },
}

/** A value from the domain's words to the wire's. */
export const toWire = (vocabulary: Vocabulary, plan: Plan, value: unknown): unknown =>
  translate(vocabulary, TO_WIRE, plan, value)

/** A value a client sent, from the wire's words to the domain's (keys only the wire has are dropped). */
export const fromWire = (vocabulary: Vocabulary, plan: Plan, value: unknown): unknown =>
  translate(vocabulary, FROM_WIRE, plan, value)

const invert = (rename: Readonly<Record<string, string>>): Record<string, string> =>
  Object.fromEntries(Object.entries(rename).map(([a, b]) => [b, a]))

function ordered(object: Record<string, unknown>, order: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const key of order) if (key in object) out[key] = object[key]
  for (const [key, value] of Object.entries(object)) if (!(key in out)) out[key] = value
  return out
}

/**
 * The schema as the wire sees it: marked keys renamed, reordered and completed, and the marks
 * removed (they are not part of the contract, and the validator does not know them).
 * `required` extras apply to responses; in request bodies the wire-only keys are optional.
 */
export function wireSchema(vocabulary: Vocabulary, schema: unknown, extrasRequired: boolean): unknown {
  if (typeof schema !== 'object' || schema === null) return schema
  let caches = wireSchemas.get(vocabulary)
  if (caches === undefined) {
    caches = [new WeakMap(), new WeakMap()]
    wireSchemas.set(vocabulary, caches)
  }
  const cache = caches[extrasRequired ? 1 : 0]
  let out = cache.get(schema)
  if (out === undefined) {
    out = Array.isArray(schema)
      ? schema.map((s) => wireSchema(vocabulary, s, extrasRequired))
      : objectWireSchema(vocabulary, schema as Schema, extrasRequired)
    cache.set(schema, out)
  }
  return out
}

/**
 * What `wireSchema` gave, by vocabulary and then by `extrasRequired`: a route's schemas are shared
 * by its roots (/v4, /v4beta) and its HEAD route, and their parts (a region, an error, a page) by
 * many routes, so each is translated once per start rather than once per use.
 */
const wireSchemas = new WeakMap<Vocabulary, [WeakMap<object, unknown>, WeakMap<object, unknown>]>()

function objectWireSchema(vocabulary: Vocabulary, schema: Schema, extrasRequired: boolean): Schema {
  const out: Schema = {}
  for (const [key, value] of Object.entries(schema)) {
    if (key === TERM || key === TERM_KEYS || key === LATER_KEYS) continue
    out[key] =
      key === 'properties' || key === 'enum' || key === 'const' || key === 'examples'
        ? key === 'properties'
          ? Object.fromEntries(
              Object.entries(value as Schema).map(([k, v]) => [k, wireSchema(vocabulary, v, extrasRequired)]),
            )
          : value
        : wireSchema(vocabulary, value, extrasRequired)
  }
  const termKind = schema[TERM] as TermKind | undefined
  if (termKind !== undefined) {
    for (const key of ['pattern', 'x-reason', 'description'] as const) {
      if (typeof out[key] === 'string') out[key] = vocabulary.schemaText(termKind, out[key])
    }
    if (Array.isArray(out.examples)) {
      out.examples = out.examples.map((e) => (typeof e === 'string' ? vocabulary.toWire(termKind, e) : e))
    }
  }
  const later = schema[LATER_KEYS] as string[] | undefined
  if (later !== undefined && !vocabulary.laterFields && isObject(out.properties)) {
    out.properties = Object.fromEntries(Object.entries(out.properties).filter(([k]) => !later.includes(k)))
    if (Array.isArray(out.required))
      out.required = (out.required as string[]).filter((k) => !later.includes(k))
  }
  const keys = schema[TERM_KEYS] as KeysKind | undefined
  if (keys === undefined || !isObject(out.properties)) return out
  const map = vocabulary.keys(keys)
  const properties: Schema = {}
  for (const [key, value] of Object.entries(out.properties)) properties[map.rename[key] ?? key] = value
  let required = Array.isArray(out.required)
    ? (out.required as string[]).map((k) => map.rename[k] ?? k)
    : undefined
  for (const extra of map.extra ?? []) {
    const like = extra.schemaLike === undefined ? undefined : properties[extra.schemaLike]
    const extraSchema = like ?? extra.schema
    if (extraSchema === undefined || extra.key in properties) continue
    properties[extra.key] = extraSchema
    if (extrasRequired) required = [...(required ?? []), extra.key]
  }
  out.properties = map.order ? ordered(properties, map.order) : properties
  if (required !== undefined) out.required = required
  return out
}

/** The X-Filter fields of a list whose values are vocabulary words, by their wire path. */
export function filterFields(vocabulary: Vocabulary, itemPlan: Plan | undefined): FilterFields {
  const fields: FilterFields = new Map()
  const walk = (plan: Plan, wirePrefix: string, internalPrefix: string) => {
    if (plan.kind !== 'object') return
    const map = plan.keys ? vocabulary.keys(plan.keys) : undefined
    for (const [name, sub] of Object.entries(plan.properties)) {
      const wire = `${wirePrefix}${map?.rename[name] ?? name}`
      const internal = `${internalPrefix}${name}`
      const leaf = sub.kind === 'array' ? sub.items : sub
      if (leaf.kind === 'term') fields.set(wire, { internal, term: leaf.term })
      else walk(leaf, `${wire}.`, `${internal}.`)
    }
    for (const [name, wire] of Object.entries(map?.rename ?? {})) {
      const key = `${wirePrefix}${wire}`
      if (!fields.has(key)) fields.set(key, { internal: `${internalPrefix}${name}` })
    }
  }
  if (itemPlan) walk(itemPlan, '', '')
  return fields
}

export type FilterFields = Map<string, { internal: string; term?: TermKind }>
