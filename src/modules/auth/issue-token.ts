import type { Db } from '../../db/connect.ts'
import { generateTokenSecret, hashTokenSecret, tokenPrefix } from './token-secret.ts'
import { insertToken } from './tokens.repository.ts'
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
  },
): Promise<IssuedToken> {
  const secret = generateTokenSecret()
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
