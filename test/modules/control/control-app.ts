import type { FastifyInstance, InjectOptions } from 'fastify'
import { buildApp } from '../../../src/app.ts'
import type { BlobStore } from '../../../src/blobs/blob-store.ts'
import { MemoryBlobStore } from '../../../src/blobs/memory-blob-store.ts'
import { AdjustableClock } from '../../../src/common/time.ts'
import type { Db } from '../../../src/db/connect.ts'
import { issueToken } from '../../../src/modules/auth/issue-token.ts'
import { ensureAdminKey } from '../../../src/modules/control/admin-key.ts'
import { ensureBaseline } from '../../../src/modules/control/state.service.ts'
import { createAccountWithOwner } from '../../../src/modules/users/users.service.ts'
import { prepareDatabase } from '../../../src/setup.ts'
import { type TestAppOptions, type TestResponse, useSuiteFixture } from '../../helpers/app.ts'
import { createTestDatabase, type TestDialect } from '../../helpers/dialects.ts'

export const ADMIN_KEY = 'test-admin-key-0123456789abcdef'
export const BOOTSTRAP_TOKEN = 'b0'.repeat(32)
export const adminHeaders = { 'x-cloudplane-admin-key': ADMIN_KEY }
export const bootstrapHeaders = { authorization: `Bearer ${BOOTSTRAP_TOKEN}` }

export interface ControlApp {
  app: FastifyInstance
  db: Db
  clock: AdjustableClock
  dialect: TestDialect
  blobs: BlobStore
  request(options: InjectOptions): Promise<TestResponse>
  /** A control API call with the admin key. */
  admin(method: InjectOptions['method'], url: string, payload?: unknown): Promise<TestResponse>
  close(): Promise<void>
}

/**
 * An app as the server starts it with the control API on: a fresh database with its default
 * account and bootstrap token, the baseline recorded, the admin key set. `options` adjust the app
 * (a phone code sender a test can read, a fixed secret key).
 */
export async function buildControlApp(options: TestAppOptions = {}): Promise<ControlApp> {
  const database = await createTestDatabase()
  const clock = new AdjustableClock()
  await prepareDatabase(database.db, clock, { defaultAccount: true, bootstrapToken: BOOTSTRAP_TOKEN })
  const blobs = new MemoryBlobStore()
  const app = await buildApp({ ...options, db: database.db, clock, control: true, blobStore: blobs })
  await app.ready()
  await ensureBaseline(database.db)
  await ensureAdminKey(database.db, ADMIN_KEY)
  const request = async (options: InjectOptions): Promise<TestResponse> => {
    const raw = await app.inject(options)
    const type = String(raw.headers['content-type'] ?? '')
    const body = type.includes('json') && raw.body !== '' ? JSON.parse(raw.body) : raw.body
    return { status: raw.statusCode, headers: raw.headers, body, raw }
  }
  return {
    app,
    db: database.db,
    clock,
    dialect: database.dialect,
    blobs,
    request,
    admin: (method, url, payload) =>
      request({
        method,
        url: `/_cloudplane${url}`,
        headers: adminHeaders,
        ...(payload !== undefined && { payload: payload as InjectOptions['payload'] }),
      }),
    async close() {
      await app.close()
      await database.db.destroy()
      await database.drop()
    },
  }
}

/** The control app of the enclosing `describe`, built before its tests and closed after. */
export function useControlApp(options: TestAppOptions = {}): ControlApp {
  return useSuiteFixture(() => buildControlApp(options))
}

/** The bootstrap token's user: their username and the account they own. */
export async function bootstrapOwner(api: ControlApp): Promise<{ username: string; accountId: number }> {
  const profile = await api.request({ method: 'GET', url: '/v4/profile', headers: bootstrapHeaders })
  const username = profile.body.username as string
  const { account_id } = await api.db
    .selectFrom('users')
    .select('account_id')
    .where('username', '=', username)
    .executeTakeFirstOrThrow()
  return { username, accountId: account_id }
}

/** A new account made as `cloudplane account create` makes one, with a token of its owner's. */
export async function newAccount(api: ControlApp, username: string) {
  const { user } = await createAccountWithOwner(api.db, api.clock, {
    username,
    email: `${username}@example.com`,
  })
  const { secret } = await issueToken(api.db, {
    userId: user.id,
    label: 't',
    scopes: '*',
    created: '2026-01-01T00:00:00',
    expiry: null,
  })
  return { headers: { authorization: `Bearer ${secret}` }, user }
}
