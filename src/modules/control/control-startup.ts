import type { FastifyInstance } from 'fastify'
import { ApiError } from '../../common/errors.ts'
import { forgetDefaultAccount } from '../../setup.ts'
import { StartupError } from '../../startup/startup-error.ts'
import { ensureAdminKey } from './admin-key.ts'
import { controlContextOf } from './control.routes.ts'
import { applySeedText } from './seed/seed.service.ts'
import { ensureBaseline } from './state.service.ts'

export interface ControlStartOptions {
  control: boolean
  adminKey: string | undefined
  seedFile: { path: string; text: string } | undefined
  /** Whether this start created the database (and its default account). */
  createdDatabase: boolean
}

/**
 * The controls' part of start-up, before the server reports ready (so `/readyz` answers 503 until
 * a seed file is in): the seed file on the start that creates the database, the baseline a reset
 * returns to, and the admin key. Returns a generated admin key, to be shown once.
 */
export async function startControls(
  app: FastifyInstance,
  options: ControlStartOptions,
): Promise<{ adminKey?: string }> {
  if (options.seedFile !== undefined && options.createdDatabase) {
    try {
      await applySeedText(controlContextOf(app), options.seedFile.text)
    } catch (error) {
      // Seeding is part of creating the database: a start that fails it leaves none behind.
      await forgetDefaultAccount(app.db)
      if (!(error instanceof ApiError)) throw error
      const problems = error.errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason))
      throw new StartupError(`the seed file ${options.seedFile.path} was not loaded: ${problems.join('; ')}`)
    }
  }
  if (!options.control) return {}
  await ensureBaseline(app.db)
  const adminKey = await ensureAdminKey(app.db, options.adminKey)
  return adminKey === undefined ? {} : { adminKey }
}
