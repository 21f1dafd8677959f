import type { Generated, Selectable } from 'kysely'

/** A user's password as an scrypt hash with its own salt and parameters (passwords.ts). */
export interface UserPasswordTable {
  user_id: number
  password_hash: string
  updated: string
}

/** An authorization code waiting for its exchange: single use, short-lived, stored hashed. */
export interface OAuthCodeTable {
  code_hash: string
  client_id: string
  user_id: number
  authorized_app_id: number
  redirect_uri: string
  scopes: string
  code_challenge: string | null
  code_challenge_method: string | null
  expiry: string
}

/** A refresh token of an authorized app; each use replaces it with a new one (rotation). */
export interface OAuthRefreshTokenTable {
  id: Generated<number>
  token_hash: string
  client_id: string
  user_id: number
  authorized_app_id: number
  scopes: string
  created: string
  expiry: string
}

/** A browser signed in to the login pages; the cookie holds the secret, the row its digest. */
export interface LoginSessionTable {
  id: Generated<number>
  secret_digest: string
  user_id: number
  stage: 'two_factor' | 'authenticated'
  created: string
  expiry: string
}

/** Failed attempts per username or per address within a window, and the lockout they led to. */
export interface LoginThrottleTable {
  key: string
  failures: number
  window_start: string
  locked_until: string | null
}

export type OAuthCodeRow = Selectable<OAuthCodeTable>
export type OAuthRefreshTokenRow = Selectable<OAuthRefreshTokenTable>
export type LoginSessionRow = Selectable<LoginSessionTable>
export type LoginThrottleRow = Selectable<LoginThrottleTable>
