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
  /**
   * Set when the actor comes from the token cache without the request's counter read (a read
   * route on PostgreSQL that checks the stamp itself, see confirmed-read.ts): not yet known to
   * hold as of the request.
   */
  unconfirmed?: UnconfirmedActor
}

export interface UnconfirmedActor {
  /** The credentials counter's value the cached lookup was made under. */
  stamp: number
  /** Authenticates the request for real (401 if the token no longer holds) and returns the actor. */
  confirm(): Promise<Actor>
}

export const actorUserId = (actor: Actor): number => actor.user.id
export const isRestricted = (actor: Actor): boolean => actor.user.restricted
