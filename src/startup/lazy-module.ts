import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

/**
 * A dependency loaded on its first use instead of at start-up: for libraries only a few routes
 * need (phone numbers, SSH keys, OAuth, TOTP, YAML), each tens of milliseconds to load, which
 * every start would otherwise pay before it is ready. The first caller pays the load, once.
 * Synchronous (`require`, which also loads ES modules), so the callers stay as they are.
 */
export function lazyModule<T>(specifier: string): () => T {
  let loaded: T | undefined
  return () => {
    loaded ??= require(specifier) as T
    return loaded
  }
}
