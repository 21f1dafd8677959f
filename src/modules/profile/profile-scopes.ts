import type { Scope } from '../auth/scopes.ts'

/** Profile sub-resources: reads need `account:read_only`, writes `account:read_write` (api-facts 6). */
export const profileRead = { scopes: ['account:read_only'] as Scope[] }
export const profileWrite = { scopes: ['account:read_write'] as Scope[] }

export const PROFILE_TAGS = ['Profile']
