import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from './app.ts'
import { FsBlobStore } from './blobs/fs-blob-store.ts'
import { AdjustableClock } from './common/time.ts'
import { baseUrl, type Config } from './config.ts'
import { createDb, type Db } from './db/connect.ts'
import { createLogger } from './logger.ts'
import { WebhookPhoneCodeSender } from './modules/profile/phone/phone-senders.ts'
import { assertSameSecretKey, loadOrCreateSecretKey } from './modules/profile/secrets/secret-key.ts'
import { prepareDatabase, type SetupResult } from './setup.ts'

/** Opens the configured database, creating the SQLite file's directory when needed. */
export function openDatabase(config: Config): Db {
  if (config.database.kind === 'sqlite' && config.database.location !== ':memory:') {
    mkdirSync(dirname(config.database.location), { recursive: true })
  }
  return createDb(config.database)
}

/**
 * Listens first (so `/healthz` answers while another process may hold the migration lock), then
 * migrates and seeds, then reports ready.
 */
export async function startServer(config: Config): Promise<FastifyInstance> {
  const logger = createLogger(config.logLevel)
  const db = openDatabase(config)
  const clock = new AdjustableClock()
  const app = await buildApp({
    db,
    ownsDb: true,
    clock,
    logger,
    ready: false,
    secretKey: config.secretKey ?? loadOrCreateSecretKey(config.dataDir),
    ...(config.phoneWebhookUrl && {
      phoneSender: new WebhookPhoneCodeSender(config.phoneWebhookUrl, { log: logger }),
    }),
    blobStore: await FsBlobStore.open(config.blobsDir),
    jobs: { poll: true },
    imageUploads: {
      publicUrl: config.publicUrl,
      maxCompressedBytes: config.imageUploadLimit,
      maxUncompressedBytes: config.imageSizeLimit,
    },
  })
  app.addHook('onClose', async () => logger.flush())
  await app.listen({ port: config.port, host: config.host })
  let setup: SetupResult
  try {
    setup = await prepareDatabase(db, clock, {
      bootstrapToken: config.bootstrapToken,
      catalogue: { regions: config.regions },
    })
    await assertSameSecretKey(db, app.secretBox)
  } catch (error) {
    await app.close()
    throw error
  }
  app.readiness.ready = true
  const where = config.database.kind === 'sqlite' ? config.database.location : 'PostgreSQL'
  logger.info({ url: `${baseUrl(config)}/v4`, database: where, migrations: setup.migrations }, 'ready')
  printWelcome(config, setup)
  return app
}

/** The first start's secret goes to the terminal, once, never to the log. */
function printWelcome(config: Config, setup: SetupResult): void {
  if (setup.created === undefined) return
  const url = `${baseUrl(config)}/v4`
  const token = setup.created.token ?? '$CLOUDPLANE_BOOTSTRAP_TOKEN'
  const lines = [
    '',
    `cloudplane: created the default account and its user "${setup.created.username}".`,
    setup.created.token
      ? 'Its personal access token (scope *) is shown this once; keep it:'
      : 'Its personal access token is the configured CLOUDPLANE_BOOTSTRAP_TOKEN.',
    ...(setup.created.token ? ['', `  ${setup.created.token}`] : []),
    '',
    'Try it:',
    `  curl -H "Authorization: Bearer ${token}" ${url}/profile`,
    '',
  ]
  process.stdout.write(`${lines.join('\n')}\n`)
}
