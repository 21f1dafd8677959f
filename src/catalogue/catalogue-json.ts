import { readFileSync } from 'node:fs'
import { parseTimestamp } from '../common/time.ts'

/**
 * Field checks shared by the catalogue parsers (the shipped data files and an operator's
 * REGIONS_FILE). Each failure names the first offending field, e.g. `regions[3].country`, so a
 * broken file is fixed from the message alone.
 */
export class CatalogueFileError extends Error {}

export type JsonObject = Record<string, unknown>

export const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export function fail(message: string): never {
  throw new CatalogueFileError(message)
}

export function object(value: unknown, where: string): JsonObject {
  if (!isObject(value)) fail(`${where} must be an object`)
  return value
}

export function text(value: unknown, where: string, max: number): string {
  if (typeof value !== 'string' || value.trim() === '' || value.length > max) {
    fail(`${where} must be a non-empty string of at most ${max} characters`)
  }
  return value
}

/** A lowercase slug in dash-separated words, as region and type ids are. */
export function slugId(value: unknown, where: string): string {
  const id = text(value, where, 64)
  if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(id))
    fail(`${where} must be lowercase letters and digits in dash-separated words`)
  return id
}

/** Fails on a key outside `allowed`; `refused` explains keys that are left out on purpose. */
export function onlyKeys(
  value: JsonObject,
  allowed: ReadonlySet<string>,
  where: string,
  refused: Readonly<Record<string, string>> = {},
): void {
  for (const key of Object.keys(value)) {
    const why = refused[key]
    if (why !== undefined) fail(`${where}.${key} ${why}`)
    if (!allowed.has(key)) fail(`${where}.${key} is not a known field (allowed: ${[...allowed].join(', ')})`)
  }
}

/** An array of distinct non-empty strings. */
export function names(value: unknown, where: string, max: number): string[] {
  if (!Array.isArray(value)) fail(`${where} must be an array of strings`)
  for (const [i, item] of value.entries()) text(item, `${where}[${i}]`, max)
  if (new Set(value).size !== value.length) fail(`${where} has duplicates`)
  return value as string[]
}

export function flag(value: unknown, where: string): boolean {
  if (typeof value !== 'boolean') fail(`${where} must be true or false`)
  return value
}

export function count(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(`${where} must be a whole number of at least 0`)
  }
  return value
}

export function amount(value: unknown, where: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(`${where} must be a number of at least 0`)
  }
  return value
}

/** A time in the API's wire format, `YYYY-MM-DDTHH:MM:SS` (UTC). */
export function timestamp(value: unknown, where: string): string {
  if (typeof value !== 'string' || parseTimestamp(value) !== value) {
    fail(`${where} must be a time written YYYY-MM-DDTHH:MM:SS`)
  }
  return value
}

/** The index of the first item whose key repeats an earlier one's, if any. */
export function firstRepeat<T>(items: readonly T[], key: (item: T) => string): number | undefined {
  const seen = new Set<string>()
  for (const [i, item] of items.entries()) {
    if (seen.has(key(item))) return i
    seen.add(key(item))
  }
  return undefined
}

export function readJsonFile(path: string): unknown {
  let content: string
  try {
    content = readFileSync(path, 'utf8')
  } catch (error) {
    fail(`cannot read ${path}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(content)
  } catch (error) {
    fail(`${path} is not valid JSON: ${(error as Error).message}`)
  }
}

/**
 * Parses a data file shipped with the server. A problem there is a defect of the release, not an
 * operator's mistake, so the message says which shipped file is broken.
 */
export function shippedCatalogue<T>(file: string, parse: () => T): T {
  try {
    return parse()
  } catch (error) {
    if (error instanceof CatalogueFileError) throw new Error(`shipped catalogue ${file}: ${error.message}`)
    throw error
  }
}
