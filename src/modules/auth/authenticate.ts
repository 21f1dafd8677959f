import { invalidToken } from '../../common/errors.ts'
import type { Db } from '../../db/connect.ts'
import type { Actor } from './actor.ts'
import { parseScopes, type ScopeSet } from './scopes.ts'
import type { TokenCache } from './token-cache.ts'
import { hashTokenSecret, sameDigest, TOKEN_PATTERN } from './token-secret.ts'
import { findTokenWithUser, type TokenWithUser } from './tokens.repository.ts'

const BEARER = /^Bearer +(\S+) *$/i

/** Parsed scope strings; tokens share a handful of distinct strings, so this stays small. */
const parsedScopes = new Map<string, ScopeSet>()

function scopesOf(text: string): ScopeSet | undefined {
  let scopes = parsedScopes.get(text)
  if (scopes === undefined) {
    scopes = parseScopes(text)
    if (scopes === undefined) return undefined
    if (parsedScopes.size > 10_000) parsedScopes.clear()
    parsedScopes.set(text, scopes)
  }
  return scopes
}

/**
 * Resolves the `Authorization` header to an actor. No header: null. Anything else that does not
 * name a live token (malformed, unknown, revoked, expired, or of a revoked or expired app): 401
 * `Invalid Token`. The token is checked against the database on every request (directly, or
 * through a cache validated by the database's change stamp), so a revocation made by any
 * process takes effect on the very next request.
 */
export async function authenticate(
  db: Db,
  authorization: string | undefined,
  now: string,
  cache?: TokenCache,
  counters?: Promise<ReadonlyMap<string, number>>,
): Promise<Actor | null> {
  if (authorization === undefined) return null
  const hash = tokenHash(authorization)
  if (hash === undefined) throw invalidToken()
  const found = cache
    ? await cache.lookup(hash, (h) => findTokenWithUser(db, h), counters)
    : await findTokenWithUser(db, hash)
  const actor = found === undefined ? undefined : actorOf(found, hash, now)
  if (actor === undefined) throw invalidToken()
  return actor
}

/**
 * The actor of the token cache's remembered lookup, with the counter value it was made under,
 * without reading the counter; undefined when there is none or it does not pass every check
 * (the caller then authenticates for real, which gives the refusal).
 */
export function cachedActor(
  authorization: string,
  now: string,
  cache: TokenCache,
): { actor: Actor; stamp: number } | undefined {
  const hash = tokenHash(authorization)
  const entry = hash === undefined ? undefined : cache.peek(hash)
  if (hash === undefined || entry === undefined) return undefined
  const actor = actorOf(entry.found, hash, now)
  return actor === undefined ? undefined : { actor, stamp: entry.stamp }
}

function tokenHash(authorization: string): string | undefined {
  const secret = BEARER.exec(authorization)?.[1]
  if (secret === undefined || !TOKEN_PATTERN.test(secret)) return undefined
  return hashTokenSecret(secret)
}

/** The actor of a found token, or undefined when it does not name a live token. */
function actorOf(found: TokenWithUser, hash: string, now: string): Actor | undefined {
  if (!sameDigest(found.token.token_hash, hash)) return undefined
  if (found.token.expiry !== null && found.token.expiry <= now) return undefined
  if (found.token.authorized_app_id !== null && found.appExpiry !== null && found.appExpiry <= now) {
    return undefined
  }
  const scopes = scopesOf(found.token.scopes)
  if (scopes === undefined) return undefined
  return {
    tokenId: found.token.id,
    clientId: found.clientId,
    authorizedAppId: found.token.authorized_app_id,
    tokenExpiry: found.token.expiry,
    scopes,
    scopeText: found.token.scopes,
    accountId: found.user.account_id,
    accountUuid: found.accountUuid,
    user: found.user,
  }
}
