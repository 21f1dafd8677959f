import type { FastifyReply, FastifyRequest } from 'fastify'
import { randomBytes } from '../../common/random.ts'
import { CSRF_COOKIE, readCookie, setCookie } from './cookies.ts'

/**
 * CSRF protection for the login forms: the browser holds a random secret in an HttpOnly cookie
 * and each form carries a keyed digest of it. Another site can make the browser post a form but
 * can neither read the cookie nor compute the digest, and a cookie planted from elsewhere does not
 * come with a matching field.
 */
export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  let secret = readCookie(request, CSRF_COOKIE)
  if (secret === undefined) {
    secret = randomBytes(32).toString('base64url')
    setCookie(request, reply, CSRF_COOKIE, secret)
  }
  return request.server.secretBox.digest('login-csrf', secret)
}

export function csrfValid(request: FastifyRequest, field: string | undefined): boolean {
  const secret = readCookie(request, CSRF_COOKIE)
  if (secret === undefined || field === undefined || !/^[0-9a-f]{64}$/.test(field)) return false
  return request.server.secretBox.matches('login-csrf', secret, field)
}
