import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { TRUSTED_DEVICE_LIFETIME_SECONDS } from '../profile/devices/devices.service.ts'
import {
  type AuthorizeParams,
  type CheckedRequest,
  checkAuthorizationRequest,
  errorRedirect,
  pickParams,
} from './authorization-request.ts'
import { DEVICE_COOKIE, readCookie, setCookie } from './cookies.ts'
import { csrfToken, csrfValid } from './csrf.ts'
import { checkPassword, checkTwoFactorCode, type LoginDeps } from './login.service.ts'
import { currentSession, endSession, startSession } from './login-sessions.ts'
import { issueCode, tokenEndpoint } from './oauth-server.ts'
import { PAGE_CSP } from './pages/layout.ts'
import { consentPage, loginPage, messagePage, twoFactorPage } from './pages/login-pages.ts'
import { describeScopes } from './scope-words.ts'
import { revokeClientToken } from './token-revocation.ts'

type Form = Record<string, string>

const field = (form: Form, name: string): string | undefined => {
  const value = form[name]
  return typeof value === 'string' ? value : undefined
}

/**
 * A client's id and secret from HTTP Basic credentials: each form-encoded before the two were
 * joined by the first colon (RFC 6749 §2.3.1), so a colon in a secret survives.
 */
function basicCredentials(encoded: string): [string, string] {
  const text = Buffer.from(encoded, 'base64').toString('utf8')
  const colon = text.indexOf(':')
  const [id, secret] = colon === -1 ? [text, ''] : [text.slice(0, colon), text.slice(colon + 1)]
  const decode = (part: string) => {
    try {
      return decodeURIComponent(part.replaceAll('+', ' '))
    } catch {
      return part
    }
  }
  return [decode(id), decode(secret)]
}

/** Where a step may send the browser next: back to an authorization request, or the signed-in page. */
function safeNext(next: string | undefined): string {
  return next !== undefined && /^\/oauth\/authorize\?[\x21-\x5b\x5d-\x7e]*$/.test(next) ? next : '/login/done'
}

function sendPage(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('content-security-policy', PAGE_CSP)
    .header('cache-control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(body)
}

const lockedMessage = (until: string) =>
  `Too many failed attempts. Signing in is locked until ${until.replace('T', ' ')} UTC; try again then.`
const REFUSED = 'The username or password is incorrect.'
const CSRF_REFUSED = 'This form has expired. Go back, reload the page and try again.'

const depsOf = (request: FastifyRequest): LoginDeps => ({
  db: request.server.db,
  clock: request.server.clock,
  box: request.server.secretBox,
})

const attemptOf = (request: FastifyRequest) => ({
  address: request.ip,
  userAgent: String(request.headers['user-agent'] ?? ''),
})

const authorizeUrl = (params: Record<string, string>) => `/oauth/authorize?${new URLSearchParams(params)}`

/**
 * The login service's pages and OAuth endpoints, outside the API roots as on the real service's
 * login host. Pages are plain forms (no script); every form carries the CSRF field; each step
 * redirects (303) to the next, so reloading never posts twice.
 */
export async function loginRoutes(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    },
  )
  const hidden = { schema: { hide: true } }

  /** The page for an authorization request: sign in, the code, or consent, by the browser's state. */
  async function authorizationPage(request: FastifyRequest, reply: FastifyReply, check: CheckedRequest) {
    if (check.kind === 'fatal') return sendPage(reply, 400, messagePage('Cannot authorize', check.message))
    if (check.kind === 'redirect_error')
      return reply.code(303).header('location', errorRedirect(check)).send()
    const csrf = csrfToken(request, reply)
    const next = authorizeUrl(check.params)
    const session = await currentSession(request)
    if (session === undefined) {
      return sendPage(reply, 200, loginPage({ csrf, next, clientLabel: check.client.label }))
    }
    if (session.row.stage === 'two_factor') {
      return sendPage(reply, 200, twoFactorPage({ csrf, next, username: session.user.username }))
    }
    return sendPage(
      reply,
      200,
      consentPage({
        csrf,
        clientLabel: check.client.label,
        username: session.user.username,
        scopeWords: describeScopes(check.scopes),
        params: check.params,
      }),
    )
  }

  app.get('/oauth/authorize', hidden, async (request, reply) => {
    const params = pickParams(request.query as Record<string, unknown>)
    return authorizationPage(request, reply, await checkAuthorizationRequest(app.db, params))
  })

  /** Consent: allow issues a code and returns to the app; deny tells the app `access_denied`. */
  app.post('/oauth/authorize', hidden, async (request, reply) => {
    const form = (request.body ?? {}) as Form
    if (!csrfValid(request, field(form, 'csrf')))
      return sendPage(reply, 403, messagePage('Expired form', CSRF_REFUSED))
    const params: AuthorizeParams = pickParams(form)
    const check = await checkAuthorizationRequest(app.db, params)
    const session = await currentSession(request)
    if (check.kind !== 'ok' || session === undefined || session.row.stage !== 'authenticated') {
      return authorizationPage(request, reply, check)
    }
    if (field(form, 'decision') !== 'allow') {
      return reply
        .code(303)
        .header(
          'location',
          errorRedirect({
            kind: 'redirect_error',
            redirectUri: check.client.redirect_uri,
            error: 'access_denied',
            description: 'The user denied access',
            ...(params.state !== undefined && { state: params.state }),
          }),
        )
        .send()
    }
    return issueCode(request, reply, check.params, { id: session.user.id }, check.client.redirect_uri)
  })

  app.get('/login', hidden, async (request, reply) => {
    const next = safeNext((request.query as Form).next)
    return sendPage(reply, 200, loginPage({ csrf: csrfToken(request, reply), next }))
  })

  app.post('/login', hidden, async (request, reply) => {
    const form = (request.body ?? {}) as Form
    const next = safeNext(field(form, 'next'))
    const csrf = csrfToken(request, reply)
    if (!csrfValid(request, field(form, 'csrf')))
      return sendPage(reply, 403, messagePage('Expired form', CSRF_REFUSED))
    const username = (field(form, 'username') ?? '').trim().slice(0, 64)
    const outcome = await checkPassword(depsOf(request), {
      ...attemptOf(request),
      username,
      password: (field(form, 'password') ?? '').slice(0, 1024),
      deviceSecret: readCookie(request, DEVICE_COOKIE),
    })
    if (outcome.kind === 'locked' || outcome.kind === 'refused') {
      const error = outcome.kind === 'locked' ? lockedMessage(outcome.until) : REFUSED
      return sendPage(
        reply,
        outcome.kind === 'locked' ? 429 : 401,
        loginPage({ csrf, next, username, error }),
      )
    }
    await startSession(
      request,
      reply,
      outcome.user.id,
      outcome.kind === 'two_factor' ? 'two_factor' : 'authenticated',
    )
    return reply.code(303).header('location', next).send()
  })

  app.post('/login/two-factor', hidden, async (request, reply) => {
    const form = (request.body ?? {}) as Form
    const next = safeNext(field(form, 'next'))
    const csrf = csrfToken(request, reply)
    if (!csrfValid(request, field(form, 'csrf')))
      return sendPage(reply, 403, messagePage('Expired form', CSRF_REFUSED))
    const session = await currentSession(request)
    if (session === undefined || session.row.stage !== 'two_factor')
      return reply.code(303).header('location', next).send()
    const outcome = await checkTwoFactorCode(depsOf(request), {
      ...attemptOf(request),
      user: session.user,
      code: (field(form, 'code') ?? '').slice(0, 64),
      trust: field(form, 'trust') === 'yes',
    })
    if (outcome.kind !== 'signed_in') {
      const error =
        outcome.kind === 'locked'
          ? lockedMessage(outcome.until)
          : 'The code is incorrect or has already been used.'
      return sendPage(
        reply,
        outcome.kind === 'locked' ? 429 : 401,
        twoFactorPage({ csrf, next, username: session.user.username, error }),
      )
    }
    if (outcome.deviceSecret !== undefined) {
      setCookie(request, reply, DEVICE_COOKIE, outcome.deviceSecret, TRUSTED_DEVICE_LIFETIME_SECONDS)
    }
    await startSession(request, reply, session.user.id, 'authenticated')
    return reply.code(303).header('location', next).send()
  })

  app.get('/login/done', hidden, async (request, reply) => {
    const session = await currentSession(request)
    const signedIn = session !== undefined && session.row.stage === 'authenticated'
    return sendPage(
      reply,
      200,
      signedIn
        ? messagePage('Signed in', `You are signed in as ${session.user.username}.`)
        : loginPage({ csrf: csrfToken(request, reply), next: '/login/done' }),
    )
  })

  app.post('/logout', hidden, async (request, reply) => {
    const form = (request.body ?? {}) as Form
    if (!csrfValid(request, field(form, 'csrf')))
      return sendPage(reply, 403, messagePage('Expired form', CSRF_REFUSED))
    await endSession(request, reply)
    return sendPage(reply, 200, messagePage('Signed out', 'You are signed out.'))
  })

  app.post('/oauth/token', hidden, async (request, reply) =>
    tokenEndpoint(request, reply, (request.body ?? {}) as Form),
  )

  app.post('/oauth/revoke', hidden, async (request, reply) => {
    const form = (request.body ?? {}) as Form
    const basic = /^Basic\s+(\S+)$/i.exec(String(request.headers.authorization ?? ''))?.[1]
    const [basicId, basicSecret] = basic === undefined ? [] : basicCredentials(basic)
    const outcome = await revokeClientToken(app.db, {
      clientId: basicId ?? field(form, 'client_id'),
      clientSecret: basicSecret ?? field(form, 'client_secret'),
      token: field(form, 'token'),
    })
    reply.header('cache-control', 'no-store').type('application/json')
    if (outcome === 'invalid_client') {
      // A client that tried the Authorization header is told how to (RFC 6749 §5.2).
      if (basic !== undefined) reply.header('www-authenticate', 'Basic realm="cloudplane"')
      return reply
        .code(401)
        .send({ error: 'invalid_client', error_description: 'Client authentication failed' })
    }
    if (outcome === 'invalid_request')
      return reply.code(400).send({ error: 'invalid_request', error_description: 'Missing parameter: token' })
    return reply.code(200).send({})
  })
}
