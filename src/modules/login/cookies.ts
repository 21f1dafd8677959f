import type { FastifyReply, FastifyRequest } from 'fastify'

/** The login service's cookies: the signed-in browser, the CSRF secret, and a trusted computer. */
export const SESSION_COOKIE = 'cloudplane_login'
export const CSRF_COOKIE = 'cloudplane_csrf'
export const DEVICE_COOKIE = 'cloudplane_device'

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie
  if (header === undefined) return undefined
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim()
      return /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : undefined
    }
  }
  return undefined
}

/**
 * Always HttpOnly (no script reads them) and SameSite=Lax (sent on the top-level navigation that
 * brings a user from an app to the authorization page, never on cross-site posts); Secure when
 * the request came over TLS.
 */
export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds?: number,
): void {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax']
  if (maxAgeSeconds !== undefined) parts.push(`Max-Age=${maxAgeSeconds}`)
  if (request.protocol === 'https') parts.push('Secure')
  const previous = reply.getHeader('set-cookie')
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)]
  reply.header('set-cookie', [...list, parts.join('; ')])
}

export function clearCookie(request: FastifyRequest, reply: FastifyReply, name: string): void {
  setCookie(request, reply, name, '', 0)
}
