import { after, before } from 'node:test'
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify'
import { type AppOptions, buildApp } from '../../src/app.ts'
import { AdjustableClock } from '../../src/common/time.ts'
import type { Db } from '../../src/db/connect.ts'
import { prepareDatabase } from '../../src/setup.ts'
import { isNaming, type Naming } from '../../src/vocabulary/naming.ts'
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

/** Adjusts the test app (e.g. small upload limits); the database and clock are always the test's own. */
export type TestAppOptions = Omit<Partial<AppOptions>, 'db' | 'clock'>

/**
 * The test app of the enclosing `describe` (or file): built in a `before` hook, closed in an `after`
 * hook. The returned object stands for the app from the first hook on, so suites can hand it to
 * helpers when they are declared. `options` may be a function, for options made in earlier hooks.
 */
export function useTestApp(options: TestAppOptions | (() => TestAppOptions) = {}): TestApp {
  return useSuiteFixture(() => buildTestApp(typeof options === 'function' ? options() : options))
}

/**
 * A fixture of the enclosing `describe` (or file): built in a `before` hook, closed in an `after`
 * hook (or earlier by its own `close`, which then does nothing more). The returned object stands
 * for the fixture from the first hook on, so suites can hand it to helpers when they are declared.
 */
export function useSuiteFixture<T extends { close(): Promise<void> }>(build: () => Promise<T>): T {
  let current: T | undefined
  before(async () => {
    current = await build()
  })
  const close = async () => {
    const closing = current
    current = undefined
    await closing?.close()
  }
  after(close)
  const built = (): T => {
    if (current === undefined)
      throw new Error('the fixture exists only between its before() and after() hooks')
    return current
  }
  return new Proxy({} as T, {
    get(_, key) {
      if (key === 'close') return close
      const fixture = built()
      const value = Reflect.get(fixture, key)
      return typeof value === 'function' ? value.bind(fixture) : value
    },
  })
}

/** The naming test apps are built with: CLOUDPLANE_TEST_NAMING (CI runs test/compat in both). */
export function testNaming(): Naming {
  const text = process.env.CLOUDPLANE_TEST_NAMING ?? 'document'
  if (!isNaming(text)) throw new Error(`CLOUDPLANE_TEST_NAMING must be document or linode, got ${text}`)
  return text
}

/**
 * An app on a fresh database (migrated, catalogue loaded, no default account), with its own
 * clock. One per test file; tests isolate themselves by creating their own accounts. Suites use
 * `useTestApp()`; a test that needs an app of its own builds one here and closes it itself.
 */
export async function buildTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = await createTestDatabase()
  const clock = new AdjustableClock()
  await prepareDatabase(database.db, clock, { defaultAccount: false })
  const app = await buildApp({ naming: testNaming(), ...options, db: database.db, clock })
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
