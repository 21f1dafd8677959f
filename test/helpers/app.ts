import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { type AppOptions, buildApp } from '../../src/app.ts'
import { AdjustableClock } from '../../src/common/time.ts'
import type { Db } from '../../src/db/connect.ts'
import { prepareDatabase } from '../../src/setup.ts'
import { createTestDatabase, type TestDialect } from './dialects.ts'

export interface TestApp {
  app: FastifyInstance
  db: Db
  clock: AdjustableClock
  dialect: TestDialect
  schema?: string
  /** `app.inject` with the body parsed when it is JSON. */
  request(options: InjectOptions): Promise<TestResponse>
  close(): Promise<void>
}

export interface TestResponse {
  status: number
  headers: LightMyRequestResponse['headers']
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected freely
  body: any
  raw: LightMyRequestResponse
}

/**
 * An app on a fresh database (migrated, catalogue loaded, no default account), with its own
 * clock. One per test file; tests isolate themselves by creating their own accounts. `options`
 * adjusts the app (e.g. small upload limits).
 */
export async function buildTestApp(
  options: Omit<Partial<AppOptions>, 'db' | 'clock'> = {},
): Promise<TestApp> {
  const database = await createTestDatabase()
  const clock = new AdjustableClock()
  await prepareDatabase(database.db, clock, { defaultAccount: false })
  const app = await buildApp({ ...options, db: database.db, clock })
  await app.ready()
  return {
    app,
    db: database.db,
    clock,
    dialect: database.dialect,
    ...(database.schema !== undefined && { schema: database.schema }),
    async request(options) {
      const raw = await app.inject(options)
      const type = String(raw.headers['content-type'] ?? '')
      const body = type.includes('json') && raw.body !== '' ? JSON.parse(raw.body) : raw.body
      return { status: raw.statusCode, headers: raw.headers, body, raw }
    },
    async close() {
      await app.close()
      await database.db.destroy()
      await database.drop()
    },
  }
}
