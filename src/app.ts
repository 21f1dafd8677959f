import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import type { BlobStore } from './blobs/blob-store.ts'
import { MemoryBlobStore } from './blobs/memory-blob-store.ts'
import { stopKeepingPages } from './common/rendered-page-cache.ts'
import { AdjustableClock } from './common/time.ts'
import type { Db } from './db/connect.ts'
import { CONTROL_OPERATIONS, control, controlClock, controlFaults } from './modules/control/control.plugin.ts'
import { imageUploadRoutes } from './modules/images/image-upload.routes.ts'
import { loginRoutes } from './modules/login/login.routes.ts'
import type { PhoneSendLimits } from './modules/profile/phone/phone-send-limits.ts'
import type { PhoneCodeSender } from './modules/profile/phone/phone-senders.ts'
import { profileServices } from './modules/profile/profile.plugin.ts'
import { apiIndexRoutes } from './plugins/api-index.ts'
import { arrayBounds } from './plugins/array-bounds.ts'
import { auth } from './plugins/auth.ts'
import { blobs } from './plugins/blobs.ts'
import { catalogueCache } from './plugins/catalogue-cache.ts'
import { db as dbPlugin } from './plugins/db.ts'
import { clientErrorHandler, errors, frameworkErrors } from './plugins/errors.ts'
import { headers } from './plugins/headers.ts'
import { type ImageUploadSettings, imageUploads } from './plugins/image-uploads.ts'
import { type JobsOptions, jobs } from './plugins/jobs.ts'
import { jsonBody } from './plugins/json-body.ts'
import { openapi } from './plugins/openapi.ts'
import { type RateLimitOptions, rateLimits } from './plugins/rate-limits.ts'
import { readiness } from './plugins/readiness.ts'
import { requestLog } from './plugins/request-log.ts'
import { API_ROOT, apiRoutes, routedUrl } from './routes.ts'
import { applyServerLimits, type HttpLimits, httpServerOptions } from './server-options.ts'
import { compileLazily, lazySerializers } from './startup/lazy-schemas.ts'
import type { Naming } from './vocabulary/naming.ts'
import { vocabularyRoutes } from './vocabulary/vocabulary.plugin.ts'
import { vocabularyFor } from './vocabulary/vocabulary.ts'

export interface AppOptions {
  db: Db
  /** Close the database with the app (the server does; tests that share a database do not). */
  ownsDb?: boolean
  clock?: AdjustableClock
  /** A pino logger, or undefined for none (tests). */
  logger?: FastifyBaseLogger
  /** Whether the database is already migrated and seeded; the server flips this after start-up. */
  ready?: boolean
  bodyLimit?: number
  /** The key sealing profile secrets (32 bytes); random per app when left out (tests). */
  secretKey?: Buffer
  /** Delivers phone verification codes; the server log when left out. */
  phoneSender?: PhoneCodeSender
  /** How often phone codes may be sent (default: the shipped limits). */
  phoneSendLimits?: PhoneSendLimits
  /** Request rate limits (default: `off`, where only login and phone codes are limited). */
  rateLimits?: RateLimitOptions
  /** Where image data is kept; an in-memory store when left out (tests). */
  blobStore?: BlobStore
  /** Background jobs: the server polls; tests leave it out and call `app.jobs.runPendingJobs()`. */
  jobs?: JobsOptions
  /** The upload URL's base and the upload limits; defaults when left out. */
  imageUploads?: Partial<ImageUploadSettings>
  /** Serve the `/_cloudplane` control API (and follow the stored clock); off when left out. */
  control?: boolean
  /** With the control API: record every API request in the journal (on when left out). */
  journal?: boolean
  /** Keep list pages as sent until their rows change (common/rendered-page-cache.ts); on when left out. */
  keptPages?: boolean
  /** Timeouts and the connection limit of the HTTP server; defaults when left out. */
  http?: Partial<HttpLimits>
  /** The wire vocabulary (CLOUDPLANE_NAMING): the API document's words when left out. */
  naming?: Naming
}

/** Builds the application without listening, for the server, the CLI's OpenAPI export and tests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const serializers = lazySerializers()
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Fastify's two lines per request are replaced by one access-log line (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    // request.log is the server's logger, not a child made per request (a measurable share of a
    // cheap request); the access log and error lines carry reqId themselves.
    childLoggerFactory: (logger) => logger,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    // A closing server refuses in the API's envelope (plugins/readiness.ts), not Fastify's.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    rewriteUrl: routedUrl,
    frameworkErrors,
    clientErrorHandler,
    ...httpServerOptions(options.http),
    ajv: {
      customOptions: {
        // JSON bodies are not coerced: `12345` for a label or `"true"` for a boolean is a 400.
        coerceTypes: false,
        // Every failure of a request is reported, not only the first.
        allErrors: true,
        verbose: true,
        removeAdditional: true,
        // Not checked against the JSON Schema meta-schema: checking the first shared schema
        // compiled the meta-schema, about a tenth of every start. The schemas are TypeBox's, and
        // every route's compiles in the tests (an unknown keyword still fails the compile).
        validateSchema: false,
      },
      onCreate: (ajv) => {
        ajv.addKeyword({ keyword: 'x-reason', schemaType: 'string' })
        compileLazily(ajv)
      },
    },
    // Serializers too are built on a route's first answer (see startup/lazy-schemas.ts).
    schemaController: { compilersFactory: { buildSerializer: serializers } },
  })
  app.decorate('compileSerializers', serializers.compile)
  applyServerLimits(app.server, options.http)

  if (options.keptPages === false) stopKeepingPages(options.db)
  await app.register(dbPlugin, {
    db: options.db,
    clock: options.clock ?? new AdjustableClock(),
    ownsDb: options.ownsDb ?? false,
  })
  // Derives each route's path and schemas from the chosen vocabulary; registered before the
  // other route hooks, so that they (the errors plugin's 405 router) see the served paths.
  await app.register(vocabularyRoutes, {
    vocabulary: vocabularyFor(options.naming ?? 'document'),
    apiPrefixes: [API_ROOT],
  })
  await app.register(headers)
  await app.register(readiness, { ready: options.ready ?? true })
  if (options.control) await app.register(controlClock)
  await app.register(errors)
  await app.register(arrayBounds)
  await app.register(jsonBody)
  await app.register(auth, { apiPrefixes: [API_ROOT] })
  await app.register(rateLimits, options.rateLimits ?? { mode: 'off' })
  // After authentication (rules may name an account or token), before any answer from a cache.
  if (options.control) await app.register(controlFaults)
  await app.register(catalogueCache)
  if (options.logger) await app.register(requestLog)
  await app.register(openapi, options.control ? { extra: CONTROL_OPERATIONS } : {})
  await app.register(profileServices, {
    secretKey: options.secretKey,
    phoneSender: options.phoneSender,
    phoneSendLimits: options.phoneSendLimits,
  })
  await app.register(blobs, { store: options.blobStore ?? new MemoryBlobStore() })
  await app.register(jobs, options.jobs ?? { poll: false })
  await app.register(imageUploads, options.imageUploads ?? {})
  await app.register(apiRoutes, { prefix: API_ROOT })
  // The `upload_to` URLs: outside the API roots, like the storage URLs the real service hands out.
  await app.register(imageUploadRoutes)
  // The login pages and OAuth endpoints, as on the real service's separate login host.
  await app.register(loginRoutes)
  await app.register(apiIndexRoutes)
  if (options.control) await app.register(control, { journal: options.journal ?? true })
  return app
}
