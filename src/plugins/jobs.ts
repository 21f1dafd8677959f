import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import { JOB_HANDLERS } from '../jobs/handlers/index.ts'
import type { JobHandlers } from '../jobs/job-kinds.ts'
import { JobRunner } from '../jobs/runner.ts'

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner
  }
}

export interface JobsOptions {
  /** Poll for due jobs in the background (the server); off in tests, which call runPendingJobs(). */
  poll: boolean
  intervalMs?: number
  handlers?: JobHandlers
}

/**
 * Decorates `app.jobs`, the runner of the `jobs` table. When polling, it starts with the app but
 * runs nothing until the database is ready, and stops (waiting for the jobs in hand) on close.
 */
async function jobsPlugin(app: FastifyInstance, options: JobsOptions) {
  const runner = new JobRunner(
    { db: app.db, blobs: app.blobs, clock: app.clock, log: app.log },
    { handlers: options.handlers ?? JOB_HANDLERS },
  )
  app.decorate('jobs', runner)
  if (!options.poll) return
  app.addHook('onReady', async () => runner.start(options.intervalMs ?? 1000, () => app.readiness.ready))
  app.addHook('onClose', async () => runner.stop())
}

export const jobs = fp(jobsPlugin, { name: 'jobs', dependencies: ['db', 'blobs', 'readiness'] })
