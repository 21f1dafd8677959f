import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import type { BlobStore } from './blobs/blob-store.ts'
import { FsBlobStore } from './blobs/fs-blob-store.ts'
import { MemoryBlobStore } from './blobs/memory-blob-store.ts'
import { randomBytes, seedRandom } from './common/random.ts'
import { AdjustableClock } from './common/time.ts'
import { baseUrl, type Config, isMemoryDatabase } from './config.ts'
import { createDb, type Db } from './db/connect.ts'
import { createLogger } from './logger.ts'
import { printAdminKey } from './modules/control/admin-key-notice.ts'
import { startControls } from './modules/control/control-startup.ts'
import { WebhookPhoneCodeSender } from './modules/profile/phone/phone-senders.ts'
import {
  assertSameSecretKey,
  loadOrCreateSecretKey,
  SECRET_KEY_FILE,
} from './modules/profile/secrets/secret-key.ts'
import { prepareImageUploads } from './plugins/image-uploads.ts'
import { prepareDatabase, type SetupResult } from './setup.ts'
import { fsErrorCause, prepareWritableFolder } from './startup/file-system.ts'
import { explainListenError } from './startup/listen-error.ts'
import { ensurePostgresSchema } from './startup/postgres-schema.ts'
import { StartupError } from './startup/startup-error.ts'
import { describePostgresUrl, waitForDatabase } from './startup/wait-for-database.ts'
import { assertSameNaming } from './vocabulary/naming-record.ts'

/** The database as people should see it in messages and logs (never a password). */
export function describeDatabase(config: Pick<Config, 'database'>): string {
  const { database } = config
  if (database.kind === 'sqlite') return database.location
  const url = describePostgresUrl(database.location)
  return database.schema === undefined ? url : `${url} (schema ${database.schema})`
}

/**
 * Opens the configured database, creating the SQLite file's folder when needed. Failures name the
 * file and the cause.
 */
export function openDatabase(config: Config): Db {
  const { database } = config
  if (database.kind === 'postgres' || isMemoryDatabase(config)) return createDb(database)
  prepareWritableFolder(dirname(database.location), 'database folder', 'DATA_DIR or DATABASE_URL')
  try {
    return createDb(database)
  } catch (error) {
    throw new StartupError(`cannot open the SQLite database ${database.location}: ${fsErrorCause(error)}`)
  }
}

/** Whether `openDatabase` will create a new SQLite file (commands mention it, as a typo check). */
export function databaseFileMissing(config: Config): boolean {
  return (
    config.database.kind === 'sqlite' && !isMemoryDatabase(config) && !existsSync(config.database.location)
  )
}

/**
 * Waits for PostgreSQL (bounded by DATABASE_CONNECT_TIMEOUT), then migrates and seeds: the start-up
 * work shared by `serve` and the commands that act on the database.
 */
export async function prepareConfiguredDatabase(
  db: Db,
  config: Config,
  clock: AdjustableClock,
  options: { defaultAccount: boolean; onRetry: Parameters<typeof waitForDatabase>[1]['onRetry'] },
): Promise<SetupResult & { createdSchema?: string }> {
  const { database } = config
  let createdSchema: string | undefined
  if (database.kind === 'postgres') {
    await waitForDatabase(db, {
      timeoutMs: config.databaseConnectTimeoutMs,
      where: describeDatabase(config),
      onRetry: options.onRetry,
    })
    if (database.schema !== undefined && (await ensurePostgresSchema(db, database.schema))) {
      createdSchema = database.schema
    }
  }
  const setup = await prepareDatabase(db, clock, {
    bootstrapToken: config.bootstrapToken,
    defaultAccount: options.defaultAccount,
    catalogue: { regions: config.regions },
  })
  return createdSchema === undefined ? setup : { ...setup, createdSchema }
}

/**
 * Without CLOUDPLANE_SECRET_KEY: `<data dir>/secret.key`, or a key that lives only in memory for
 * an in-memory database (whose sealed secrets die with the process anyway). That one comes from the
 * random source, so a seeded run's keyed digests repeat too (docs/decisions.md#deterministic-runs).
 */
function secretKeyFor(config: Config): Buffer {
  if (config.secretKey !== undefined) return config.secretKey
  if (isMemoryDatabase(config)) return randomBytes(32)
  prepareWritableFolder(config.dataDir, 'data directory', 'DATA_DIR (--data-dir)')
  try {
    return loadOrCreateSecretKey(config.dataDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === undefined) throw error
    const path = join(config.dataDir, SECRET_KEY_FILE)
    throw new StartupError(`cannot create the secret key ${path}: ${fsErrorCause(error)}`)
  }
}

/** Image data on disk, or in memory next to an in-memory database unless a folder is configured. */
async function blobStoreFor(config: Config): Promise<BlobStore> {
  if (isMemoryDatabase(config) && !config.blobsDirConfigured) return new MemoryBlobStore()
  prepareWritableFolder(config.blobsDir, 'image data folder', 'CLOUDPLANE_BLOBS_DIR (--blobs-dir)')
  return FsBlobStore.open(config.blobsDir)
}

async function listen(app: FastifyInstance, config: Config): Promise<number> {
  try {
    await app.listen({ port: config.port, host: config.host })
  } catch (error) {
    throw explainListenError(error, config.host, config.port)
  }
  const address = app.server.address()
  return typeof address === 'object' && address !== null ? address.port : config.port
}

/**
 * Listens first (so `/healthz` answers while another process may hold the migration lock), then
 * waits for the database, migrates and seeds, then reports ready. With PORT=0 every URL shown or
 * handed out (the ready line, the welcome text, `upload_to`) carries the port actually bound.
 */
export async function startServer(config: Config): Promise<FastifyInstance> {
  const logger = createLogger(config.logLevel)
  seedRandom(config.randomSeed)
  const secretKey = secretKeyFor(config)
  const db = openDatabase(config)
  const clock = new AdjustableClock()
  const app = await buildApp({
    db,
    ownsDb: true,
    clock,
    logger,
    ready: false,
    secretKey,
    ...(config.phoneWebhookUrl && {
      phoneSender: new WebhookPhoneCodeSender(config.phoneWebhookUrl, { log: logger }),
    }),
    blobStore: await blobStoreFor(config),
    jobs: { poll: true },
    control: config.control,
    journal: config.journal,
    keptPages: config.keptPages,
    naming: config.naming,
    rateLimits: { mode: config.rateLimits, redisUrl: config.redisUrl },
    imageUploads: {
      publicUrl: config.publicUrl,
      maxCompressedBytes: config.imageUploadLimit,
      maxUncompressedBytes: config.imageSizeLimit,
    },
  })
  app.addHook('onClose', async () => logger.flush())
  let port: number
  try {
    port = await listen(app, config)
  } catch (error) {
    await app.close()
    throw error
  }
  const bound = { ...config, port }
  if (!config.publicUrlConfigured) app.imageUploads.publicUrl = baseUrl(bound)
  let setup: SetupResult & { createdSchema?: string }
  let controls: { adminKey?: string }
  try {
    setup = await prepareConfiguredDatabase(db, config, clock, {
      defaultAccount: true,
      onRetry: ({ number, delayMs, cause }) =>
        logger.warn({ attempt: number, retryInMs: delayMs, cause }, 'database unreachable; retrying'),
    })
    if (setup.createdSchema) logger.info({ schema: setup.createdSchema }, 'created the PostgreSQL schema')
    await assertSameSecretKey(db, app.secretBox)
    await assertSameNaming(db, config.naming)
    controls = await startControls(app, { ...config, createdDatabase: setup.created?.database === true })
  } catch (error) {
    await app.close()
    throw error
  }
  app.readiness.ready = true
  prepareImageUploads(app)
  const url = `${baseUrl(bound)}/v4`
  logger.info({ url, port, database: describeDatabase(config), migrations: setup.migrations }, 'ready')
  printWelcome(url, setup, config.bootstrapTokenHint)
  if (controls.adminKey !== undefined) printAdminKey(controls.adminKey, baseUrl(bound))
  process.stderr.write(`cloudplane: ready on ${url} (docs: ${baseUrl(bound)}/docs)\n`)
  return app
}

/**
 * The first start's secret goes to the terminal (stderr), once, never to the log: stdout carries
 * only JSON log lines, so it can be piped to a log collector as is.
 */
function printWelcome(url: string, setup: SetupResult, configuredToken: string): void {
  if (setup.created === undefined) return
  const token = setup.created.token ?? configuredToken
  const lines = [
    '',
    `cloudplane: created the default account and its user "${setup.created.username}".`,
    setup.created.token
      ? 'Its personal access token (scope *) is shown this once; keep it:'
      : 'Its personal access token is the configured bootstrap token.',
    ...(setup.created.token ? ['', `  ${setup.created.token}`] : []),
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${token}" ${url}/profile`,
    '',
  ]
  process.stderr.write(`${lines.join('\n')}\n`)
}
