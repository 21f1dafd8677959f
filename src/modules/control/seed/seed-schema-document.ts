import { SeedFileSchema } from './seed.schema.ts'

/**
 * The published JSON Schema of seed files (docs/seed.schema.json), from the TypeBox schema the
 * server checks them with. `x-reason` is the API's own keyword for error texts: not for editors.
 */
export function seedSchemaDocument(): string {
  const strip = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(strip)
    if (value === null || typeof value !== 'object') return value
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => key !== 'x-reason')
        .map(([key, inner]) => [key, strip(inner)]),
    )
  }
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    ...(strip(SeedFileSchema) as object),
  }
  return `${JSON.stringify(schema, null, 2)}\n`
}
