import type { Db } from '../../db/connect.ts'
import type { ScopeSet } from '../auth/scopes.ts'
import { findActiveOAuthClient, type OAuthClientRow } from '../oauth-clients/oauth-clients.service.ts'
import { grantableScopes } from './oauth-model.ts'

/** The parameters of an authorization request (RFC 6749 §4.1.1, RFC 7636 §4.3), as strings. */
export const AUTHORIZE_PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'scope',
  'state',
  'code_challenge',
  'code_challenge_method',
] as const

export type AuthorizeParams = Partial<Record<(typeof AUTHORIZE_PARAMS)[number], string>>

export type CheckedRequest =
  /** No trustworthy redirect URI: the user is told, nothing is sent to the app (RFC 6749 §4.1.2.1). */
  | { kind: 'fatal'; message: string }
  /** The app is told by a redirect to its own URI, with the state it sent. */
  | { kind: 'redirect_error'; redirectUri: string; error: string; description: string; state?: string }
  | { kind: 'ok'; client: OAuthClientRow; scopes: ScopeSet; params: Record<string, string> }

export function pickParams(source: Record<string, unknown>): AuthorizeParams {
  const params: AuthorizeParams = {}
  for (const name of AUTHORIZE_PARAMS) {
    const value = source[name]
    if (typeof value === 'string' && value !== '') params[name] = value
  }
  return params
}

/**
 * Checks a request before anyone is asked to sign in. The client and the exact redirect URI come
 * first (a mismatch is never redirected to); then, reported to the app: the response type, PKCE
 * (required with S256 for public clients; `plain` is never accepted) and the scopes.
 */
export async function checkAuthorizationRequest(db: Db, params: AuthorizeParams): Promise<CheckedRequest> {
  const client =
    params.client_id === undefined ? undefined : await findActiveOAuthClient(db, params.client_id)
  if (client === undefined)
    return { kind: 'fatal', message: 'This app is not known, or it has been disabled.' }
  if (params.redirect_uri !== undefined && params.redirect_uri !== client.redirect_uri) {
    return { kind: 'fatal', message: 'The redirect URI does not match the one registered for this app.' }
  }
  const fail = (error: string, description: string): CheckedRequest => ({
    kind: 'redirect_error',
    redirectUri: client.redirect_uri,
    error,
    description,
    ...(params.state !== undefined && { state: params.state }),
  })
  if (params.response_type !== 'code') {
    return fail(
      'unsupported_response_type',
      'Only the authorization code flow (response_type=code) is supported',
    )
  }
  if (params.code_challenge_method !== undefined && params.code_challenge_method !== 'S256') {
    return fail('invalid_request', 'code_challenge_method must be S256')
  }
  // Without a method the challenge would be `plain` (RFC 7636 §4.3), which is not supported.
  if (params.code_challenge !== undefined && params.code_challenge_method === undefined) {
    return fail('invalid_request', 'code_challenge_method must be S256')
  }
  if (params.code_challenge_method !== undefined && params.code_challenge === undefined) {
    return fail('invalid_request', 'code_challenge is missing')
  }
  if (params.code_challenge !== undefined && !/^[A-Za-z0-9._~-]{43,128}$/.test(params.code_challenge)) {
    return fail('invalid_request', 'code_challenge is malformed')
  }
  if (client.public && (params.code_challenge === undefined || params.code_challenge_method !== 'S256')) {
    return fail('invalid_request', 'Public clients must use PKCE with code_challenge_method=S256')
  }
  // What the protocol allows in a scope and a state (RFC 6749 §3.3, Appendix A.5), refused here
  // rather than after the user consented.
  if (params.scope !== undefined && !/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/.test(params.scope)) {
    return fail('invalid_scope', 'The requested scope is invalid')
  }
  if (params.state !== undefined && !/^[\x20-\x7e]*$/.test(params.state)) {
    return fail('invalid_request', 'state must be printable ASCII')
  }
  const scopes = grantableScopes(params.scope)
  if (scopes === undefined) return fail('invalid_scope', 'The requested scope is invalid')
  const kept: Record<string, string> = {}
  for (const [name, value] of Object.entries(params)) if (value !== undefined) kept[name] = value
  return { kind: 'ok', client, scopes, params: kept }
}

/** The app's redirect URI with an error and the state (RFC 6749 §4.1.2.1). */
export function errorRedirect(check: Extract<CheckedRequest, { kind: 'redirect_error' }>): string {
  const url = new URL(check.redirectUri)
  url.searchParams.set('error', check.error)
  url.searchParams.set('error_description', check.description)
  if (check.state !== undefined) url.searchParams.set('state', check.state)
  return url.toString()
}
