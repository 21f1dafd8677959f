import { isUtf8 } from 'node:buffer'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { ApiError, badRequest } from '../common/errors.ts'

/** A NUL escape not itself escaped: PostgreSQL text cannot hold it, so it is refused up front. */
const NUL_ESCAPE = /(^|[^\\])(\\\\)*\\u0000/

/** A `\uD800`-`\uDFFF` escape: the only way a JSON text can carry half of a surrogate pair. */
const SURROGATE_ESCAPE = /\\u[dD][89a-fA-F]/
/** A high surrogate not followed by a low one, or a low one not preceded by a high one. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/
const wellFormed = (text: string) => !LONE_SURROGATE.test(text)

/**
 * Strings no database stores as sent, each found first by its escape in the text (cheap, and
 * absent from nearly every body), then in the parsed value to name the field: PostgreSQL text
 * cannot hold a NUL, and a lone surrogate would come back as U+FFFD. Refused, never altered.
 */
const UNSTORABLE = [
  {
    escape: NUL_ESCAPE,
    holds: (text: string) => text.includes('\u0000'),
    reason: 'Strings must not contain NUL characters',
  },
  {
    escape: SURROGATE_ESCAPE,
    holds: (text: string) => !wellFormed(text),
    reason: 'Must be valid Unicode text (a lone UTF-16 surrogate is not)',
  },
]

/** The path of the first string (or key) that `holds`; '' for the body itself, undefined for none. */
function stringWhere(value: unknown, path: string, holds: (text: string) => boolean): string | undefined {
  if (typeof value === 'string') return holds(value) ? path : undefined
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = stringWhere(item, `${path}[${i}]`, holds)
      if (found !== undefined) return found
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`
      if (holds(key)) return at
      const found = stringWhere(item, at, holds)
      if (found !== undefined) return found
    }
  }
  return undefined
}

/** Each JSON body as it was sent: the request journal keeps the text rather than serialising the value again. */
const bodyTexts = new WeakMap<FastifyRequest, string>()
export const jsonBodyText = (request: FastifyRequest): string | undefined => bodyTexts.get(request)

/**
 * JSON is the only request body the API takes (routes that stream other media register their own
 * parser). An empty body is "no body", which routes without one accept and routes with one refuse
 * through their schema.
 */
async function jsonBodyPlugin(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const bytes = body as Buffer
    const text = bytes.toString('utf8')
    // Bytes that are not UTF-8 decode as U+FFFD: refused rather than stored altered (a U+FFFD sent
    // as such is UTF-8 and passes). JSON is UTF-8 (RFC 8259 §8.1), whatever charset is declared.
    if (text.includes('\uFFFD') && !isUtf8(bytes)) {
      return done(badRequest('The request body must be UTF-8 text'), undefined)
    }
    if (text.trim() === '') return done(null, undefined)
    bodyTexts.set(request, text)
    const suspects = UNSTORABLE.filter((u) => u.escape.test(text))
    if (suspects.length === 0) return parseJson(request, text, done)
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      if (error) return done(error, undefined)
      for (const { holds, reason } of suspects) {
        const field = stringWhere(value, '', holds)
        if (field !== undefined) return done(badRequest(reason, field || undefined), undefined)
      }
      done(null, value)
    })
  })
  // Clients send bodiless POSTs (`/tfa-disable`, `/events/{id}/seen`) with whatever Content-Type
  // their HTTP library defaults to (axios: form-urlencoded). No body, nothing to refuse.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    if ((body as Buffer).length === 0) return done(null, undefined)
    done(
      new ApiError('unsupported_media_type', [{ reason: 'Content-Type must be application/json' }]),
      undefined,
    )
  })
}

export const jsonBody = fp(jsonBodyPlugin, { name: 'json-body' })
