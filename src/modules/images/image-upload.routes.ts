import { IncomingMessage } from 'node:http'
import type { Readable } from 'node:stream'
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { ApiError, notFound } from '../../common/errors.ts'
import { errorResponses } from '../../common/schemas.ts'
import { receiveUpload, UPLOAD_PATH } from './image-uploads.service.ts'
import { ImageSchema, UploadParamsSchema } from './images.schemas.ts'

/** How long a client may go on sending after its upload was refused before it is cut off. */
const LINGER_MS = 5000

/**
 * Reads and drops the rest of a refused body for a while. Closing at once with data unread would
 * make the kernel reset the connection, and the client could lose the answer that explains the
 * refusal; a client that stops sending (as curl does on an early error) keeps its connection.
 */
function discardRest(body: Readable, request: IncomingMessage): void {
  body.resume()
  // Destroying the unfinished request closes its connection (an injected one has no socket).
  const timer = setTimeout(() => request.destroy(), LINGER_MS).unref()
  const done = () => clearTimeout(timer)
  body.once('end', done)
  request.once('close', done)
}

const serverClosing = () =>
  new ApiError('unavailable', [{ reason: 'The server is shutting down; retry the upload' }])

/** What curl -T sends (nothing), what the API document asks for, and the usual gzip names. */
const ACCEPTED_TYPES = new Set(['', 'application/octet-stream', 'application/gzip', 'application/x-gzip'])

/**
 * The upload URL (`upload_to`): like a presigned URL, the secret in the path is the only
 * credential, and all it opens is the PUT of one image's data. An encapsulated plugin, so the
 * parser that hands the raw body stream over applies to this route alone; the route's URL is kept
 * out of the access log, which shows the pattern instead.
 */
export const imageUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // A body that stopped arriving on a connection that is gone would otherwise hold its
  // inspection and its claim on the URL past the server's close, and keep the process alive.
  const closing = new AbortController()
  const receiving = new Set<Promise<unknown>>()
  app.addHook('onClose', async () => {
    closing.abort(serverClosing())
    await Promise.allSettled(receiving)
  })

  app.removeAllContentTypeParsers()
  const handOver = (_request: unknown, payload: Readable, done: (error: null, body: Readable) => void) =>
    done(null, payload)
  app.addContentTypeParser('application/octet-stream', handOver)
  // Any other type (and none, as curl -T sends) reaches the handler too, which answers it.
  app.addContentTypeParser('*', handOver)

  app.put(
    `${UPLOAD_PATH}/:token`,
    {
      schema: {
        operationId: 'putImageData',
        summary: 'Receive the gzip-compressed raw disk image of an upload (the `upload_to` URL)',
        params: UploadParamsSchema,
        response: { 200: ImageSchema, ...errorResponses },
        hide: true,
      },
      config: { auth: { public: true }, sensitiveUrl: true },
    },
    async (request) => {
      const body = request.body as Readable | undefined
      try {
        const type = (request.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase() ?? ''
        if (!ACCEPTED_TYPES.has(type)) {
          throw new ApiError('unsupported_media_type', [
            { reason: 'Content-Type must be application/octet-stream' },
          ])
        }
        if (closing.signal.aborted) throw serverClosing()
        const length = request.headers['content-length']
        const received = receiveUpload(
          { db: app.db, blobs: app.blobs, clock: app.clock },
          {
            token: request.params.token,
            body,
            declaredBytes: length === undefined ? undefined : Number(length),
            // A body read from a socket holds fresh copies; an injected one may hold its caller's.
            ownChunks: request.raw instanceof IncomingMessage,
            stop: closing.signal,
          },
          app.imageUploads,
        )
        receiving.add(received)
        try {
          return await received
        } finally {
          receiving.delete(received)
        }
      } catch (error) {
        if (body && !body.readableEnded) discardRest(body, request.raw)
        throw error
      }
    },
  )

  // Anything else under the upload path is not found, and its URL (which may hold a secret) is
  // kept out of the log too.
  app.route({
    method: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'],
    url: `${UPLOAD_PATH}/*`,
    schema: { hide: true },
    config: { auth: { public: true }, sensitiveUrl: true },
    handler: async (request) => {
      const body = request.body as Readable | undefined
      if (body && !body.readableEnded) discardRest(body, request.raw)
      throw notFound()
    },
  })
}
