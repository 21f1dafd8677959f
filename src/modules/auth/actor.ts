import type { UserRow } from '../users/users.table.ts'
import type { ScopeSet } from './scopes.ts'

/** Who is acting: the token's user, account and scopes, resolved once per request. */
export interface Actor {
  tokenId: number
  /** The OAuth client behind the token, or null for a personal access token. */
  clientId: string | null
  authorizedAppId: number | null
  /** When the acting token stops working (null: never); tokens it creates may not outlive it. */
  tokenExpiry: string | null
  scopes: ScopeSet
  /** The token's scopes as sent in `X-OAuth-Scopes`. */
  scopeText: string
  accountId: number
  accountUuid: string
  user: UserRow
}

export const actorUserId = (actor: Actor): number => actor.user.id
export const isRestricted = (actor: Actor): boolean => actor.user.restricted
