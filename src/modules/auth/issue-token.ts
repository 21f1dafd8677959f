import type { Db } from '../../db/connect.ts'
import { generateTokenSecret, hashTokenSecret, tokenPrefix } from './token-secret.ts'
import { findTokenIdByHash, insertToken } from './tokens.repository.ts'
import type { TokenRow } from './tokens.table.ts'

export interface IssuedToken {
  row: TokenRow
  /** The full secret: shown once, never stored. */
  secret: string
}

/** Creates a token for a user; the caller decides label, scopes and expiry and records any event. */
export async function issueToken(
  db: Db,
  options: {
    userId: number
    label: string
    scopes: string
    created: string
    expiry: string | null
    authorizedAppId?: number | null
    /** A fixed secret (seed files); a new random one when left out. */
    secret?: string
  },
): Promise<IssuedToken> {
  const secret = options.secret ?? generateTokenSecret()
  const row = await insertToken(db, {
    userId: options.userId,
    authorizedAppId: options.authorizedAppId ?? null,
    label: options.label,
    scopes: options.scopes,
    tokenHash: hashTokenSecret(secret),
    tokenPrefix: tokenPrefix(secret),
    created: options.created,
    expiry: options.expiry,
  })
  return { row, secret }
}

/** Whether a token with this secret exists already (fixed secrets must stay unique). */
export async function tokenSecretTaken(db: Db, secret: string): Promise<boolean> {
  return (await findTokenIdByHash(db, hashTokenSecret(secret))) !== undefined
}
