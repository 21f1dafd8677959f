import type OAuth2Server from '@node-oauth/oauth2-server'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { lazyModule } from '../../startup/lazy-module.ts'
import { errorRedirect } from './authorization-request.ts'
import {
  ACCESS_TOKEN_SECONDS,
  CODE_SECONDS,
  type ModelUser,
  oauthModel,
  REFRESH_TOKEN_SECONDS,
} from './oauth-model.ts'

/** Only the login host's OAuth endpoints use the library: loaded by the first, not at start-up. */
const oauthLibrary = lazyModule<typeof OAuth2Server>('@node-oauth/oauth2-server')

/**
 * The OAuth 2.0 protocol is @node-oauth/oauth2-server's: code issuance, the token endpoint's
 * grants (authorization code with PKCE, refresh token with rotation), client authentication and
 * RFC 6749 error bodies. This file adapts it to Fastify; the model (oauth-model.ts) keeps its
 * state in our tables.
 */
const OPTIONS = {
  accessTokenLifetime: ACCESS_TOKEN_SECONDS,
  refreshTokenLifetime: REFRESH_TOKEN_SECONDS,
  authorizationCodeLifetime: CODE_SECONDS,
  allowEmptyState: true,
  alwaysIssueNewRefreshToken: true,
  // Public clients refresh without a secret; confidential ones are still held to theirs (model).
  requireClientAuthentication: { authorization_code: true, refresh_token: false },
}

function libraryRequest(request: FastifyRequest, body: Record<string, string>): OAuth2Server.Request {
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === 'string') headers[name] = value
  }
  return new (oauthLibrary().Request)({ headers, method: request.method, query: {}, body })
}

function sendLibraryResponse(reply: FastifyReply, response: OAuth2Server.Response): FastifyReply {
  for (const [name, value] of Object.entries(response.headers ?? {})) reply.header(name, value)
  return reply
    .code(response.status ?? 200)
    .type('application/json')
    .send(JSON.stringify(response.body ?? {}))
}

/**
 * Issues a code for a user who consented, and redirects to the app (303, so the browser GETs it).
 * A refusal is redirected here, not by the library, whose error redirect drops the error and the
 * state from a redirect URI that has a query of its own (RFC 6749 §3.1.2 keeps that query).
 */
export async function issueCode(
  request: FastifyRequest,
  reply: FastifyReply,
  params: Record<string, string>,
  user: ModelUser,
  registeredRedirectUri: string,
): Promise<FastifyReply> {
  const { db, clock } = request.server
  const server = new (oauthLibrary())({ ...OPTIONS, model: oauthModel(db, clock, false) })
  const response = new (oauthLibrary().Response)()
  try {
    await server.authorize(libraryRequest(request, params), response, {
      authenticateHandler: {
        handle: () => ({ ...user, redirectUriGiven: params.redirect_uri !== undefined }),
      },
    })
  } catch (error) {
    const { name, message } = error as Error
    const location = errorRedirect({
      kind: 'redirect_error',
      redirectUri: params.redirect_uri ?? registeredRedirectUri,
      error: /^[a-z_]+$/.test(name) ? name : 'server_error',
      description: message,
      ...(params.state !== undefined && { state: params.state }),
    })
    return reply.code(303).header('location', location).send()
  }
  const location = response.headers?.location
  if (typeof location !== 'string') return reply.code(400).send()
  return reply.code(303).header('location', location).send()
}

/** POST /oauth/token: the grants, client authentication, RFC 6749 §5 answers. */
export async function tokenEndpoint(
  request: FastifyRequest,
  reply: FastifyReply,
  body: Record<string, string>,
): Promise<FastifyReply> {
  const { db, clock } = request.server
  const server = new (oauthLibrary())({ ...OPTIONS, model: oauthModel(db, clock, true) })
  const response = new (oauthLibrary().Response)()
  try {
    await server.token(libraryRequest(request, body), response)
  } catch (error) {
    if (!(error instanceof oauthLibrary().OAuthError) || error.code >= 500)
      request.log.error({ err: error }, 'token request failed')
  }
  return sendLibraryResponse(reply, redirectMismatchAsInvalidGrant(response))
}

/**
 * RFC 6749 §5.2 answers `invalid_grant` when the redirect URI differs from the authorization
 * request's; the library says `invalid_request` there (the code is spent either way).
 */
function redirectMismatchAsInvalidGrant(response: OAuth2Server.Response): OAuth2Server.Response {
  const body = response.body as { error?: string; error_description?: string } | undefined
  if (body?.error === 'invalid_request' && body.error_description?.includes('`redirect_uri` is invalid')) {
    response.body = { ...body, error: 'invalid_grant' }
  }
  return response
}
