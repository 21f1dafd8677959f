import { notFound } from './errors.ts'

/** The largest id a path may name; above it nothing can exist (and PostgreSQL bigint would overflow). */
const MAX_ID = Number.MAX_SAFE_INTEGER

/**
 * Turns a path id (already matched against the canonical-integer pattern) into a number; one too
 * large to exist is simply not found.
 */
export function parseId(text: string): number {
  const id = Number(text)
  if (!Number.isSafeInteger(id) || id < 1 || id > MAX_ID) throw notFound()
  return id
}
