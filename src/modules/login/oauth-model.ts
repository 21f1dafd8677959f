import type OAuth2Server from '@node-oauth/oauth2-server'
import { addSeconds, type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { issueToken } from '../auth/issue-token.ts'
import { formatScopes, parseScopes, type ScopeSet } from '../auth/scopes.ts'
import { generateTokenSecret, hashTokenSecret } from '../auth/token-secret.ts'
import {
  clientSecretMatches,
  findActiveOAuthClient,
  type OAuthClientRow,
} from '../oauth-clients/oauth-clients.service.ts'
import { authorizeApp } from '../profile/apps/apps.service.ts'
import type { UserRow } from '../users/users.table.ts'
import * as repo from './login.repository.ts'

/** Access tokens live two hours, as the real service's do; refresh tokens 30 days; codes 5 minutes. */
export const ACCESS_TOKEN_SECONDS = 2 * 3600
export const REFRESH_TOKEN_SECONDS = 30 * 24 * 3600
export const CODE_SECONDS = 5 * 60

/** The library's view of a client; `row` keeps ours at hand. */
export interface ModelClient extends OAuth2Server.Client {
  row: OAuthClientRow
}

/** The library's view of a user: the user, and once consent is given, the app it authorized. */
export interface ModelUser {
  id: number
  row?: UserRow
  appId?: number
  /**
   * At consent: whether the request named its redirect URI. A code asked for without one is
   * exchanged without one (RFC 6749 §4.1.3); the library would hold it to the registered URI.
   */
  redirectUriGiven?: boolean
  /**
   * At a refresh: the scopes of the refresh token sent. Its successor keeps them even when the
   * access token is asked for fewer (RFC 6749 §6), so a narrowed refresh narrows only its token.
   */
  refreshScopes?: string
}

/**
 * The scopes a user may hand to an app: every valid scope. What a token can then reach is still
 * limited by the user's own permissions (a restricted user's grants apply to their app tokens as
 * to their personal tokens), so an app never gets more than its user has.
 */
export function grantableScopes(requested: string | undefined): ScopeSet | undefined {
  const scopes = parseScopes(requested === undefined || requested.trim() === '' ? '*' : requested)
  return scopes
}

const scopeList = (scopes: string): string[] => scopes.split(' ')

/**
 * The library compares expiry with the machine's time; ours is the app clock (tests move it). A
 * row's remaining lifetime by our clock is turned into a Date on the machine's.
 */
function machineExpiry(clock: Clock, expiry: string): Date {
  const remaining = Date.parse(`${expiry}Z`) - Date.parse(`${nowTimestamp(clock)}Z`)
  return new Date(Date.now() + remaining)
}

/**
 * The storage side of @node-oauth/oauth2-server: clients, codes and tokens in our tables. Access
 * tokens are ordinary API tokens tied to the authorized app, so the API's authentication (and
 * its cross-process revocation) covers them unchanged. `checkSecret` is on for the token endpoint:
 * a confidential client must prove its secret there, while the authorization endpoint only names
 * the client.
 */
export function oauthModel(db: Db, clock: Clock, checkSecret: boolean) {
  /** The client by id alone: for codes and refresh tokens already bound to it. */
  async function knownClient(clientId: string): Promise<ModelClient | false> {
    const row = await findActiveOAuthClient(db, clientId)
    if (row === undefined) return false
    return {
      id: row.id,
      redirectUris: [row.redirect_uri],
      grants: ['authorization_code', 'refresh_token'],
      accessTokenLifetime: ACCESS_TOKEN_SECONDS,
      refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
      row,
    }
  }

  /** The client a request names; at the token endpoint a confidential one must prove its secret. */
  async function getClient(clientId: string, clientSecret: string | null | undefined) {
    const client = await knownClient(clientId)
    if (client === false || !checkSecret || client.row.public) return client
    if (typeof clientSecret !== 'string') return false
    return clientSecretMatches(client.row.secret_hash, clientSecret) ? client : false
  }

  async function validateScope(_user: ModelUser, _client: ModelClient, scope: string[] | undefined) {
    const requested = grantableScopes(scope?.join(' '))
    if (requested === undefined) return false
    return scopeList(formatScopes(requested))
  }

  async function saveAuthorizationCode(
    code: Pick<OAuth2Server.AuthorizationCode, 'authorizationCode' | 'redirectUri' | 'scope'> & {
      codeChallenge?: string
      codeChallengeMethod?: string
    },
    client: ModelClient,
    user: ModelUser,
  ) {
    const now = nowTimestamp(clock)
    const scopes = (code.scope ?? []).join(' ')
    const expiry = addSeconds(now, CODE_SECONDS)
    const app = await inTransaction(db, async (trx) => {
      // Consent given: the app appears in the user's profile at once (its tokens follow).
      const row = await authorizeApp(trx, {
        userId: user.id,
        clientId: client.row.id,
        label: client.row.label,
        scopes,
        website: new URL(client.row.redirect_uri).origin,
        thumbnailUrl: client.row.thumbnail_url ?? '',
        created: now,
        expiry: null,
      })
      await repo.insertCode(trx, {
        code_hash: hashTokenSecret(code.authorizationCode),
        client_id: client.row.id,
        user_id: user.id,
        authorized_app_id: row.id,
        // Empty: none was asked for, none is checked at the exchange.
        redirect_uri: user.redirectUriGiven === false ? '' : code.redirectUri,
        scopes,
        code_challenge: code.codeChallenge ?? null,
        code_challenge_method: code.codeChallengeMethod ?? null,
        expiry,
      })
      return row
    })
    return {
      ...code,
      expiresAt: machineExpiry(clock, expiry),
      client,
      user: { ...user, appId: app.id },
    }
  }

  async function getAuthorizationCode(authorizationCode: string) {
    const row = await repo.findCode(db, hashTokenSecret(authorizationCode))
    if (row === undefined || row.expiry <= nowTimestamp(clock)) return false
    const client = await knownClient(row.client_id)
    if (client === false) return false
    return {
      authorizationCode,
      expiresAt: machineExpiry(clock, row.expiry),
      ...(row.redirect_uri !== '' && { redirectUri: row.redirect_uri }),
      scope: scopeList(row.scopes),
      client,
      user: { id: row.user_id, appId: row.authorized_app_id } satisfies ModelUser,
      ...(row.code_challenge !== null && { codeChallenge: row.code_challenge }),
      ...(row.code_challenge_method !== null && { codeChallengeMethod: row.code_challenge_method }),
    }
  }

  async function revokeAuthorizationCode(code: OAuth2Server.AuthorizationCode) {
    return repo.consumeCode(db, hashTokenSecret(code.authorizationCode))
  }

  async function saveToken(
    token: Pick<OAuth2Server.Token, 'accessToken' | 'refreshToken' | 'scope'>,
    client: ModelClient,
    user: ModelUser,
  ): Promise<OAuth2Server.Token> {
    const appId = user.appId
    if (appId === undefined) throw new Error('an OAuth token needs its authorized app')
    const now = nowTimestamp(clock)
    const scopes = (token.scope ?? []).join(' ')
    const refreshToken = token.refreshToken ?? generateTokenSecret()
    const refreshExpiry = addSeconds(now, REFRESH_TOKEN_SECONDS)
    const accessExpiry = addSeconds(now, ACCESS_TOKEN_SECONDS)
    const issued = await inTransaction(db, async (trx) => {
      const access = await issueToken(trx, {
        userId: user.id,
        label: client.row.label,
        scopes,
        created: now,
        expiry: accessExpiry,
        authorizedAppId: appId,
        secret: token.accessToken,
      })
      await repo.insertRefreshToken(trx, {
        token_hash: hashTokenSecret(refreshToken),
        client_id: client.row.id,
        user_id: user.id,
        authorized_app_id: appId,
        scopes: user.refreshScopes ?? scopes,
        created: now,
        expiry: refreshExpiry,
      })
      return access
    })
    return {
      accessToken: issued.secret,
      accessTokenExpiresAt: machineExpiry(clock, accessExpiry),
      refreshToken,
      refreshTokenExpiresAt: machineExpiry(clock, refreshExpiry),
      scope: token.scope ?? [],
      client,
      user,
    }
  }

  async function getRefreshToken(refreshToken: string) {
    const row = await repo.findRefreshToken(db, hashTokenSecret(refreshToken))
    if (row === undefined || row.expiry <= nowTimestamp(clock)) return false
    const client = await knownClient(row.client_id)
    if (client === false) return false
    return {
      refreshToken,
      refreshTokenExpiresAt: machineExpiry(clock, row.expiry),
      scope: scopeList(row.scopes),
      client,
      user: { id: row.user_id, appId: row.authorized_app_id, refreshScopes: row.scopes } satisfies ModelUser,
    }
  }

  /** Rotation: a refresh token is good for one exchange, even when two race. */
  async function revokeToken(token: OAuth2Server.RefreshToken) {
    return repo.consumeRefreshToken(db, hashTokenSecret(token.refreshToken))
  }

  /** Unused by these grants (the API authenticates its own tokens); the library's types ask for it. */
  async function getAccessToken() {
    return false as const
  }

  /**
   * Codes and tokens get 256 random bits from the server's random source (so a seeded run repeats
   * them; the library's own generator would draw from the operating system); only hashes are stored.
   */
  async function generateAuthorizationCode() {
    return generateTokenSecret()
  }

  async function generateAccessToken() {
    return generateTokenSecret()
  }

  async function generateRefreshToken() {
    return generateTokenSecret()
  }

  return {
    getClient,
    validateScope,
    saveAuthorizationCode,
    getAuthorizationCode,
    revokeAuthorizationCode,
    saveToken,
    getRefreshToken,
    revokeToken,
    getAccessToken,
    generateAuthorizationCode,
    generateAccessToken,
    generateRefreshToken,
  }
}
