import { invalidToken } from '../../common/errors.ts'
import type { Db } from '../../db/connect.ts'
import type { Actor } from './actor.ts'
import { parseScopes, type ScopeSet } from './scopes.ts'
import type { TokenCache } from './token-cache.ts'
import { hashTokenSecret, sameDigest, TOKEN_PATTERN } from './token-secret.ts'
import { findTokenWithUser } from './tokens.repository.ts'

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
  const secret = BEARER.exec(authorization)?.[1]
  if (secret === undefined || !TOKEN_PATTERN.test(secret)) throw invalidToken()
  const hash = hashTokenSecret(secret)
  const found = cache
    ? await cache.lookup(hash, (h) => findTokenWithUser(db, h), counters)
    : await findTokenWithUser(db, hash)
  if (found === undefined || !sameDigest(found.token.token_hash, hash)) throw invalidToken()
  if (found.token.expiry !== null && found.token.expiry <= now) throw invalidToken()
  if (found.token.authorized_app_id !== null && found.appExpiry !== null && found.appExpiry <= now) {
    throw invalidToken()
  }
  const scopes = scopesOf(found.token.scopes)
  if (scopes === undefined) throw invalidToken()
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
