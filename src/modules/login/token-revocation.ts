import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { hashTokenSecret } from '../auth/token-secret.ts'
import { clientSecretMatches, findActiveOAuthClient } from '../oauth-clients/oauth-clients.service.ts'
import * as repo from './login.repository.ts'

export type RevocationOutcome = 'revoked' | 'invalid_client' | 'invalid_request'

/**
 * RFC 7009: a client revokes one of its own access or refresh tokens. The answer is the same
 * whether or not the token existed (nothing to learn by probing); a token of another client is
 * left alone. Confidential clients authenticate with their secret, public ones name themselves.
 */
export async function revokeClientToken(
  db: Db,
  input: { clientId: string | undefined; clientSecret: string | undefined; token: string | undefined },
): Promise<RevocationOutcome> {
  if (input.clientId === undefined) return 'invalid_client'
  const client = await findActiveOAuthClient(db, input.clientId)
  if (client === undefined) return 'invalid_client'
  if (
    !client.public &&
    (input.clientSecret === undefined || !clientSecretMatches(client.secret_hash, input.clientSecret))
  ) {
    return 'invalid_client'
  }
  if (input.token === undefined) return 'invalid_request'
  const hash = hashTokenSecret(input.token)
  const refresh = await repo.findRefreshToken(db, hash)
  if (refresh !== undefined && refresh.client_id === client.id) {
    // The access tokens of the same authorization go with it (RFC 7009 §2.1).
    await inTransaction(db, async (trx) => {
      await repo.consumeRefreshToken(trx, hash)
      await repo.deleteAppAccessTokens(trx, refresh.authorized_app_id)
    })
    return 'revoked'
  }
  const access = await repo.findAppAccessToken(db, hash)
  if (access !== undefined && access.client_id === client.id) await repo.deleteAccessToken(db, access.id)
  return 'revoked'
}
