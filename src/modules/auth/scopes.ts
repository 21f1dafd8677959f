/**
 * OAuth scopes (docs/service-facts.md#oauth-scopes): `<category>:read_only` or
 * `<category>:read_write`, separated by spaces, or `*` for everything. `read_write` satisfies
 * `read_only` (docs/decisions.md#scope-levels).
 */
export const SCOPE_CATEGORIES = [
  'account',
  'databases',
  'domains',
  'events',
  'firewall',
  'images',
  'ips',
  'computes',
  'lke',
  'longview',
  'nodebalancers',
  'object_storage',
  'stackscripts',
  'volumes',
  'vpc',
] as const

export type ScopeCategory = (typeof SCOPE_CATEGORIES)[number]
export type ScopeLevel = 'read_only' | 'read_write'
export type Scope = `${ScopeCategory}:${ScopeLevel}`

const RANK: Record<ScopeLevel, number> = { read_only: 1, read_write: 2 }
const CATEGORIES = new Set<string>(SCOPE_CATEGORIES)

export interface ScopeSet {
  readonly all: boolean
  readonly levels: ReadonlyMap<string, ScopeLevel>
}

export const ALL_SCOPES: ScopeSet = { all: true, levels: new Map() }

/** Parses a scope string; returns undefined for anything malformed or unknown. */
export function parseScopes(text: string): ScopeSet | undefined {
  const parts = text.split(/[\s,]+/).filter((p) => p !== '')
  if (parts.length === 0) return undefined
  if (parts.includes('*')) return parts.length === 1 ? ALL_SCOPES : undefined
  const levels = new Map<string, ScopeLevel>()
  for (const part of parts) {
    const [category, level, extra] = part.split(':')
    if (extra !== undefined || category === undefined || !CATEGORIES.has(category)) return undefined
    if (level !== 'read_only' && level !== 'read_write') return undefined
    const current = levels.get(category)
    if (current === undefined || RANK[level] > RANK[current]) levels.set(category, level)
  }
  return { all: false, levels }
}

/** The canonical text of a scope set: `*`, or `category:level` pairs in catalogue order. */
export function formatScopes(scopes: ScopeSet): string {
  if (scopes.all) return '*'
  return SCOPE_CATEGORIES.filter((c) => scopes.levels.has(c))
    .map((c) => `${c}:${scopes.levels.get(c)}`)
    .join(' ')
}

export function hasScope(scopes: ScopeSet, required: Scope): boolean {
  if (scopes.all) return true
  const [category, level] = required.split(':') as [string, ScopeLevel]
  const held = scopes.levels.get(category)
  return held !== undefined && RANK[held] >= RANK[level]
}

export function hasScopes(scopes: ScopeSet, required: readonly Scope[]): boolean {
  for (const scope of required) if (!hasScope(scopes, scope)) return false
  return true
}

/** True when every scope in `inner` is also granted by `outer` (a new token may not exceed its creator). */
export function isWithin(inner: ScopeSet, outer: ScopeSet): boolean {
  if (outer.all) return true
  if (inner.all) return false
  for (const [category, level] of inner.levels) {
    if (!hasScope(outer, `${category}:${level}` as Scope)) return false
  }
  return true
}
