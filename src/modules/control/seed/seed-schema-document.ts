import { LATER_KEYS, TERM, TERM_KEYS } from '../../../vocabulary/terms.ts'
import { SeedFileSchema } from './seed.schema.ts'

/**
 * The published JSON Schema of seed files (docs/seed.schema.json), from the TypeBox schema the
 * server checks them with. `x-reason` (the API's error texts) and the vocabulary's marks (which
 * values are words the naming translates) are the server's own keywords: not for editors.
 */
const OWN_KEYWORDS = new Set(['x-reason', TERM, TERM_KEYS, LATER_KEYS])

export function seedSchemaDocument(): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !OWN_KEYWORDS.has(key))
        .map(([key, inner]) => [key, strip(inner)]),
    )
  }
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(strip(SeedFileSchema) as object),
  }
  return `${JSON.stringify(schema, null, 2)}\n`
}
