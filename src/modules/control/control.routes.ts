import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import { ApiError, badRequest } from '../../common/errors.ts'
import { countersOf } from '../../plugins/db.ts'
import { ADMIN_KEY_HEADER, isAdminKey } from './admin-key.ts'
import * as clockService from './clock.service.ts'
import { ClockSync } from './clock-store.ts'
import { findUserAccount } from './control.repository.ts'
import {
  AdvanceBodySchema,
  ClockSchema,
  CONTROL_TAG,
  ControlErrorSchema,
  SetBodySchema,
  SnapshotListSchema,
  SnapshotNameBodySchema,
  SnapshotParamsSchema,
  SnapshotSchema,
  TfaCodeSchema,
  UsernameParamsSchema,
} from './control.schemas.ts'
import type { ControlContext } from './control-context.ts'
import { applySeedText } from './seed/seed.service.ts'
import * as state from './state.service.ts'
import { currentTfaCodes } from './two-factor-code.ts'

export const CONTROL_PREFIX = '/_cloudplane'

const tags = [CONTROL_TAG.name]
const security = [{ adminKey: [] }]
const errors = { 400: ControlErrorSchema, 401: ControlErrorSchema, 404: ControlErrorSchema }
/** Snapshot files and seed files may be large; the API's 1 MB body limit is for API bodies. */
const FILE_BODY_LIMIT = 2 * 1024 ** 3

const clockSyncs = new WeakMap<FastifyInstance, ClockSync>()

/** The app's one clock sync (made on first use: start-up seeding may need it before any request). */
function clockSyncOf(app: FastifyInstance): ClockSync {
  let sync = clockSyncs.get(app)
  if (sync === undefined) {
    sync = new ClockSync(app.db, app.clock)
    clockSyncs.set(app, sync)
  }
  return sync
}

export function controlContextOf(app: FastifyInstance): ControlContext {
  return {
    db: app.db,
    clock: app.clock,
    blobs: app.blobs,
    vocabulary: app.vocabulary,
    log: app.log,
    runDueJobs: () => app.jobs.runAllDueJobs(),
    syncClock: () => clockSyncOf(app).sync(),
  }
}

const bodyBytes = (request: FastifyRequest): Buffer => {
  const body = request.body
  if (Buffer.isBuffer(body)) return body
  if (body === undefined || body === null) return Buffer.alloc(0)
  return Buffer.from(typeof body === 'string' ? body : JSON.stringify(body))
}

/**
 * The control API (`/_cloudplane/…`): emulator operations for tests, behind the admin key. Its
 * own encapsulated scope: its own body parsing (snapshot files, YAML seed files) and its own
 * clock sync, which every request of the app runs so that a clock moved by any process is seen.
 */
/** How a control route documents itself: summary, the control tag, the admin key. */
export type ControlDocs = <S extends object = object>(
  summary: string,
  schema?: S,
) => { schema: { summary: string; tags: string[]; security: Array<Record<string, never[]>> } & S }

export interface ControlRoutesOptions {
  /** More control routes (journal, faults), registered in this scope: behind the admin key. */
  extraRoutes?: (scope: FastifyInstance, ctx: ControlContext, docs: ControlDocs) => Promise<void>
}

export const controlRoutes: FastifyPluginAsyncTypebox<ControlRoutesOptions> = async (app, options) => {
  const ctx = controlContextOf(app)

  app.removeAllContentTypeParsers()
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => {
    const bytes = body as Buffer
    if (bytes.length === 0) return done(null, undefined)
    try {
      done(null, JSON.parse(bytes.toString('utf8')))
    } catch {
      done(badRequest('The body is not valid JSON'), undefined)
    }
  })
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body))

  app.addHook('onRequest', async (request) => {
    const sent = request.headers[ADMIN_KEY_HEADER]
    const key = typeof sent === 'string' && sent !== '' ? sent : undefined
    if (!(await isAdminKey(app.db, key))) {
      const reason = key === undefined ? `Send the admin key in ${ADMIN_KEY_HEADER}` : 'Wrong admin key'
      throw new ApiError('invalid_token', [{ reason }])
    }
  })

  const docs: ControlDocs = <S extends object = object>(summary: string, schema?: S) => ({
    schema: { summary, tags, security, ...(schema as S) },
  })

  app.get(
    '/clock',
    docs('Show the virtual and real time', { response: { 200: ClockSchema, ...errors } }),
    async () => clockService.clockView(ctx),
  )
  app.post(
    '/clock/advance',
    docs('Move the clock forward; what became due by then happens', {
      body: AdvanceBodySchema,
      response: { 200: ClockSchema, ...errors },
    }),
    async (request) => clockService.advanceClock(ctx, request.body.by),
  )
  app.post(
    '/clock/set',
    docs('Set the clock to an instant (it runs on from there)', {
      body: SetBodySchema,
      response: { 200: ClockSchema, ...errors },
    }),
    async (request) => clockService.setClock(ctx, request.body.at),
  )
  app.post(
    '/clock/resume',
    docs('Back to real time', { response: { 200: ClockSchema, ...errors } }),
    async () => clockService.resumeClock(ctx),
  )

  app.post(
    '/reset',
    // No body schema: a bodiless POST is the whole reset; the schema is for the document only.
    docs('Reset the whole state to right after the first start, or one account (by username)', {
      description: 'Body (optional): `{ "username": "…" }` resets only that user\'s account.',
    }),
    async (request) => {
      const body = request.body as { username?: unknown } | undefined
      if (body !== undefined && (typeof body !== 'object' || body === null))
        throw badRequest('must be a JSON object', 'body')
      const username = body?.username
      if (username !== undefined && typeof username !== 'string')
        throw badRequest('must be a string', 'username')
      if (username === undefined) {
        await state.resetAll(ctx)
        return { reset: 'all' }
      }
      return { reset: 'account', ...(await state.resetAccount(ctx, username)) }
    },
  )

  app.get(
    '/snapshots',
    docs('List snapshots', { response: { 200: SnapshotListSchema, ...errors } }),
    async () => ({
      data: await state.listSnapshots(ctx),
    }),
  )
  app.post(
    '/snapshots',
    docs('Save the whole state (image data included) under a name', {
      body: SnapshotNameBodySchema,
      response: { 200: SnapshotSchema, ...errors },
    }),
    async (request) => state.saveSnapshot(ctx, request.body.name),
  )
  app.post(
    '/snapshots/:name/restore',
    docs('Restore a snapshot, atomically', { params: SnapshotParamsSchema }),
    async (request) => {
      await state.restoreSnapshot(ctx, request.params.name)
      return { restored: request.params.name }
    },
  )
  app.delete(
    '/snapshots/:name',
    docs('Delete a snapshot', { params: SnapshotParamsSchema }),
    async (request) => {
      await state.deleteSnapshot(ctx, request.params.name)
      return {}
    },
  )
  app.get(
    '/snapshots/:name/export',
    docs('The snapshot as a file (gzip JSON), to import elsewhere', { params: SnapshotParamsSchema }),
    async (request, reply) => {
      const bytes = await state.exportSnapshot(ctx, request.params.name)
      reply.header('content-disposition', `attachment; filename="${request.params.name}.cloudplane.gz"`)
      return reply.type('application/gzip').send(bytes)
    },
  )
  app.put(
    '/snapshots/:name',
    {
      ...docs('Import a snapshot file under a name (body: the exported file)', {
        params: SnapshotParamsSchema,
        response: { 200: SnapshotSchema, ...errors },
      }),
      bodyLimit: FILE_BODY_LIMIT,
    },
    async (request) => state.importSnapshot(ctx, request.params.name, bodyBytes(request)),
  )

  app.post(
    '/seed',
    { ...docs('Load a seed file (JSON or YAML): all of it or nothing'), bodyLimit: FILE_BODY_LIMIT },
    async (request) => applySeedText(ctx, bodyBytes(request).toString('utf8')),
  )

  app.get(
    '/accounts/:username/state',
    docs("One account's whole state as JSON (the account of this user)", { params: UsernameParamsSchema }),
    async (request) => state.dumpAccount(ctx, request.params.username),
  )
  app.get(
    '/users/:username/tfa-code',
    docs("The current two-factor codes of a user's pending and enabled secrets", {
      params: UsernameParamsSchema,
      response: { 200: TfaCodeSchema, ...errors },
    }),
    async (request) => {
      const found = await findUserAccount(ctx.db, request.params.username)
      if (found === undefined) throw badRequest(`no user named "${request.params.username}"`, 'username')
      return currentTfaCodes(ctx.db, app.secretBox, ctx.clock, found.userId)
    },
  )

  await options.extraRoutes?.(app, ctx, docs)
}

/**
 * Every request (API or control) first brings this process's clock in line with the stored one,
 * and so does the job runner, on a timer, between requests.
 */
export async function installClockSync(app: FastifyInstance): Promise<void> {
  const sync = clockSyncOf(app)
  app.addHook('onRequest', async (request) => {
    if (!app.readiness.ready || request.url === '/healthz' || request.url === '/readyz') return
    await sync.sync(countersOf(request))
  })
  const timer = setInterval(() => {
    if (app.readiness.ready) sync.sync().catch((err) => app.log.warn({ err }, 'clock sync failed'))
  }, 500)
  timer.unref()
  app.addHook('onClose', async () => clearInterval(timer))
}
