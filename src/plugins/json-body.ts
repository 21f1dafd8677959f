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
 * The path of the first string (or key) holding a lone surrogate, which no database stores as
 * sent (it would come back as U+FFFD): refused rather than altered. Undefined when there is none.
 */
function lonelySurrogateAt(value: unknown, path: string): string | undefined {
  if (typeof value === 'string') return wellFormed(value) ? undefined : path
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = lonelySurrogateAt(item, `${path}[${i}]`)
      if (found !== undefined) return found
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) {
      const at = path === '' ? key : `${path}.${key}`
      if (!wellFormed(key)) return at
      const found = lonelySurrogateAt(item, at)
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
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string
    if (text.trim() === '') return done(null, undefined)
    bodyTexts.set(request, text)
    if (NUL_ESCAPE.test(text)) return done(badRequest('Strings must not contain NUL characters'), undefined)
    if (!SURROGATE_ESCAPE.test(text)) return parseJson(request, text, done)
    parseJson(request, text, (error: Error | null, value?: unknown) => {
      const field = error ? undefined : lonelySurrogateAt(value, '')
      if (field === undefined) return done(error, value)
      done(
        badRequest('Must be valid Unicode text (a lone UTF-16 surrogate is not)', field || undefined),
        undefined,
      )
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
