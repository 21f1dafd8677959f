import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { CONTROL_PREFIX, controlRoutes, installClockSync } from './control.routes.ts'
import { CONTROL_TAG } from './control.schemas.ts'
import { installFaultHook } from './faults/fault-hook.ts'
import { faultRoutes } from './faults/faults.routes.ts'
import { journalRoutes } from './journal/journal.routes.ts'
import { installJournalHook } from './journal/journal-hook.ts'
import { type JournalLimits, JournalWriter } from './journal/journal-writer.ts'
import { workRoutes } from './work/work.routes.ts'
import { workFails } from './work/work.service.ts'

/** How the API document shows the control API (see plugins/openapi.ts). */
export const CONTROL_OPERATIONS = {
  tag: CONTROL_TAG,
  pathPrefix: CONTROL_PREFIX,
  securitySchemes: {
    adminKey: {
      type: 'apiKey',
      in: 'header',
      name: 'X-Cloudplane-Admin-Key',
      description: 'The admin key: CLOUDPLANE_ADMIN_KEY, or the one printed at the first start',
    },
  },
}

export interface ControlPluginOptions {
  /** The request journal: on unless `false` (its limits when an object). */
  journal?: boolean | Partial<JournalLimits>
}

/**
 * The emulator's controls: the request journal and the `/_cloudplane` routes. Not registered at all when the control API is
 * off, so its routes are 404s and none of its hooks runs.
 */
async function controlPlugin(app: FastifyInstance, options: ControlPluginOptions) {
  // The clock sync is `controlClock`, registered ahead of authentication, and the fault rules
  // `controlFaults`, right after it (see below).
  let writer: JournalWriter | undefined
  if (options.journal !== false) {
    writer = new JournalWriter(app.db, app.clock, app.log, options.journal === true ? {} : options.journal)
    installJournalHook(app, writer, CONTROL_PREFIX)
    const journal = writer
    app.addHook('onClose', async () => journal.close())
  }
  // A fault rule with `job` makes that kind of timed work fail when it comes due.
  app.jobs.useWorkFaults((work) => workFails(app, work))
  await app.register(controlRoutes, {
    prefix: CONTROL_PREFIX,
    extraRoutes: async (scope, ctx, docs) => {
      await scope.register(faultRoutes, { ctx, docs })
      await scope.register(workRoutes, { ctx, docs })
      if (writer !== undefined) await scope.register(journalRoutes, { ctx, docs, writer })
    },
  })
}

export const control = fp(controlPlugin, {
  name: 'control',
  dependencies: ['db', 'blobs', 'jobs', 'readiness', 'control-clock', 'control-faults'],
})

/**
 * The fault rules, applied before any handler: app.ts registers them right after authentication
 * (rules may name an account or a token) and ahead of the catalogue cache, which answers from its
 * own hook.
 */
export const controlFaults = fp(
  async (app: FastifyInstance) => {
    installFaultHook(app, CONTROL_PREFIX)
  },
  { name: 'control-faults', dependencies: ['db', 'readiness', 'auth'] },
)

/**
 * The stored clock, followed by every request before anything reads the time: app.ts registers
 * it ahead of authentication (which checks token expiry), so that a move made by another process
 * counts from the very next request.
 */
export const controlClock = fp(installClockSync, { name: 'control-clock', dependencies: ['db', 'readiness'] })
