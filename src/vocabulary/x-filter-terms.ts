import type { Vocabulary } from './vocabulary.ts'
import type { FilterFields } from './wire-plan.ts'

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/**
 * An X-Filter as sent, in the domain's words: field names (`+order_by` too) and the values of
 * vocabulary fields, at any depth of `+and`/`+or`. Text that is not a JSON object is passed on
 * as is, for the compiler to refuse in its own words.
 */
export function filterFromWire(vocabulary: Vocabulary, fields: FilterFields, text: string): string {
  let root: unknown
  try {
    root = JSON.parse(text)
  } catch {
    return text
  }
  if (!isObject(root)) return text
  return JSON.stringify(node(vocabulary, fields, root))
}

function node(vocabulary: Vocabulary, fields: FilterFields, filter: Record<string, unknown>) {
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(filter)) {
    if (key === '+and' || key === '+or') {
      out[key] = Array.isArray(value)
        ? value.map((item) => (isObject(item) ? node(vocabulary, fields, item) : item))
        : value
    } else if (key === '+order_by') {
      out[key] = typeof value === 'string' ? (fields.get(value)?.internal ?? value) : value
    } else if (key.startsWith('+')) {
      out[key] = value
    } else {
      const field = fields.get(key)
      const translate = (v: unknown) =>
        field?.term !== undefined && typeof v === 'string' ? vocabulary.fromWire(field.term, v) : v
      const condition = isObject(value)
        ? Object.fromEntries(Object.entries(value).map(([op, operand]) => [op, translate(operand)]))
        : translate(value)
      out[field?.internal ?? key] = condition
    }
  }
  return out
}
