import { badRequest } from '../../../common/errors.ts'

/**
 * `mine` in a script list's X-Filter (the console's "my scripts") is a condition on the caller,
 * not a column, so it is taken out of the filter's top level before the rest is compiled. Deeper
 * in `+and`/`+or` it is not a filterable field.
 */
export function takeMine(filter: string | undefined): {
  filter: string | undefined
  mine: boolean | undefined
} {
  if (filter === undefined) return { filter, mine: undefined }
  let parsed: unknown
  try {
    parsed = JSON.parse(filter)
  } catch {
    // Not JSON: the filter compiler refuses it in its own words.
    return { filter, mine: undefined }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('mine' in parsed)) {
    return { filter, mine: undefined }
  }
  const { mine, ...rest } = parsed as Record<string, unknown>
  if (typeof mine !== 'boolean') throw badRequest('mine must be true or false', 'X-Filter')
  return { filter: JSON.stringify(rest), mine }
}
