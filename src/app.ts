import { randomUUID } from 'node:crypto'
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify'
import type { BlobStore } from './blobs/blob-store.ts'
import { MemoryBlobStore } from './blobs/memory-blob-store.ts'
import { AdjustableClock } from './common/time.ts'
import type { Db } from './db/connect.ts'
import { imageUploadRoutes } from './modules/images/image-upload.routes.ts'
import type { PhoneCodeSender } from './modules/profile/phone/phone-senders.ts'
import { profileServices } from './modules/profile/profile.plugin.ts'
import { auth } from './plugins/auth.ts'
import { blobs } from './plugins/blobs.ts'
import { db as dbPlugin } from './plugins/db.ts'
import { clientErrorHandler, errors, frameworkErrors } from './plugins/errors.ts'
import { headers } from './plugins/headers.ts'
import { type ImageUploadSettings, imageUploads } from './plugins/image-uploads.ts'
import { type JobsOptions, jobs } from './plugins/jobs.ts'
import { jsonBody } from './plugins/json-body.ts'
import { openapi } from './plugins/openapi.ts'
import { readiness } from './plugins/readiness.ts'
import { requestLog } from './plugins/request-log.ts'
import { API_PREFIXES, apiRoutes } from './routes.ts'

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
  /** Where image data is kept; an in-memory store when left out (tests). */
  blobStore?: BlobStore
  /** Background jobs: the server polls; tests leave it out and call `app.jobs.runPendingJobs()`. */
  jobs?: JobsOptions
  /** The upload URL's base and the upload limits; defaults when left out. */
  imageUploads?: Partial<ImageUploadSettings>
}

/** Builds the application without listening, for the server, the CLI's OpenAPI export and tests. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.logger ? { loggerInstance: options.logger } : { logger: false }),
    // Fastify's two lines per request are replaced by one access-log line (plugins/request-log.ts).
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 256 },
    frameworkErrors,
    clientErrorHandler,
    ajv: {
      customOptions: {
        // JSON bodies are not coerced: `12345` for a label or `"true"` for a boolean is a 400.
        coerceTypes: false,
        // Every failure of a request is reported, not only the first.
        allErrors: true,
        verbose: true,
        removeAdditional: true,
      },
      onCreate: (ajv) => {
        ajv.addKeyword({ keyword: 'x-reason', schemaType: 'string' })
      },
    },
  })

  await app.register(dbPlugin, {
    db: options.db,
    clock: options.clock ?? new AdjustableClock(),
    ownsDb: options.ownsDb ?? false,
  })
  await app.register(headers)
  await app.register(readiness, { ready: options.ready ?? true })
  await app.register(errors)
  await app.register(jsonBody)
  await app.register(auth, { apiPrefixes: API_PREFIXES })
  if (options.logger) await app.register(requestLog)
  await app.register(openapi)
  await app.register(profileServices, { secretKey: options.secretKey, phoneSender: options.phoneSender })
  await app.register(blobs, { store: options.blobStore ?? new MemoryBlobStore() })
  await app.register(jobs, options.jobs ?? { poll: false })
  await app.register(imageUploads, options.imageUploads ?? {})
  for (const prefix of API_PREFIXES) await app.register(apiRoutes, { prefix })
  // The `upload_to` URLs: outside the API roots, like the storage URLs the real service hands out.
  await app.register(imageUploadRoutes)
  return app
}
