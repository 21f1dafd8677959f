/**
 * A script's user-defined fields: the `<UDF name="…" label="…" … />` tags in its text (usually in
 * comments), which ask whoever deploys it for values (`stackscript_data`). A field without a
 * `default` must be given; `oneof` and `manyof` list the allowed values, comma-separated.
 */
export interface UserDefinedField {
  label: string
  name: string
  example?: string
  oneof?: string
  manyof?: string
  default?: string
}

const TAG = /<UDF\b([^>]*?)\/?>/gi
const ATTRIBUTE = /([A-Za-z_]+)\s*=\s*"([^"]*)"/g
/** Tag attributes as sent, lower-cased, to the field's key (key order is the wire's). */
const KEYS = ['label', 'name', 'example', 'oneof', 'manyof', 'default'] as const

/** The fields the script declares, in order; a tag without a name and a label is not a field. */
export function parseUserDefinedFields(script: string): UserDefinedField[] {
  const fields: UserDefinedField[] = []
  for (const tag of script.matchAll(TAG)) {
    const attributes = new Map<string, string>()
    for (const [, key, value] of (tag[1] ?? '').matchAll(ATTRIBUTE)) {
      attributes.set((key as string).toLowerCase(), value as string)
    }
    const name = attributes.get('name')
    const label = attributes.get('label')
    if (!name || !label || fields.some((f) => f.name === name)) continue
    const field: Record<string, string> = {}
    for (const key of KEYS) {
      const value = attributes.get(key)
      if (value !== undefined) field[key] = value
    }
    fields.push(field as unknown as UserDefinedField)
  }
  return fields
}

const choices = (list: string) => list.split(',').map((c) => c.trim())

/**
 * What is wrong with the values given for the fields (`stackscript_data`), each with the field it
 * names: a required field left out or empty, or a value outside its `oneof`/`manyof` choices.
 */
export function checkUserData(
  fields: readonly UserDefinedField[],
  data: Readonly<Record<string, string>>,
): Array<{ reason: string; field: string }> {
  const problems: Array<{ reason: string; field: string }> = []
  for (const field of fields) {
    const value = Object.hasOwn(data, field.name) ? data[field.name] : undefined
    const path = `stackscript_data.${field.name}`
    if (value === undefined || value === '') {
      if (field.default === undefined) problems.push({ reason: `${field.label} is required`, field: path })
      continue
    }
    if (field.oneof !== undefined && !choices(field.oneof).includes(value)) {
      problems.push({
        reason: `${field.label} must be one of: ${choices(field.oneof).join(', ')}`,
        field: path,
      })
    }
    if (field.manyof !== undefined) {
      const allowed = choices(field.manyof)
      if (!choices(value).every((v) => allowed.includes(v))) {
        problems.push({ reason: `${field.label} must be any of: ${allowed.join(', ')}`, field: path })
      }
    }
  }
  return problems
}
