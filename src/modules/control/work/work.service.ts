import type { Static } from 'typebox'
import {
  INSTANT_WORK,
  REALISTIC_WORK,
  readWorkDurations,
  WORK_KINDS,
  type WorkDurations,
  type WorkKind,
  writeWorkDurations,
} from '../../../jobs/work-durations.ts'
import type { ControlContext } from '../control-context.ts'
import { FaultDice } from '../faults/fault-rules.ts'
import { claimFiring, listFaultRules } from '../faults/faults.repository.ts'
import type { WorkDurationsBodySchema } from './work.schemas.ts'

export async function showDurations(ctx: ControlContext): Promise<WorkDurations> {
  return readWorkDurations(ctx.db)
}

/** A preset (`instant`, `realistic`) and/or seconds per kind of work, over what is set now. */
export async function setDurations(
  ctx: ControlContext,
  body: Static<typeof WorkDurationsBodySchema> & Partial<WorkDurations>,
): Promise<WorkDurations> {
  const base =
    body.preset === 'instant'
      ? INSTANT_WORK
      : body.preset === 'realistic'
        ? REALISTIC_WORK
        : await readWorkDurations(ctx.db)
  const next: WorkDurations = { ...base }
  for (const kind of WORK_KINDS) {
    const seconds = body[kind]
    if (seconds !== undefined) next[kind] = seconds
  }
  await writeWorkDurations(ctx.db, next)
  return next
}

/** This process's draws for job rules: with a seed, the same pieces of work fail on a rerun. */
const jobDice = new FaultDice()

/**
 * Whether a fault rule makes this piece of work fail now: the first `job` rule naming it that
 * draws and still has firings left (counted across processes).
 */
export async function workFails(ctx: Pick<ControlContext, 'db'>, work: WorkKind): Promise<boolean> {
  for (const rule of await listFaultRules(ctx.db)) {
    if (rule.effect.kind !== 'job' || rule.effect.job !== work) continue
    if (rule.probability < 1 && jobDice.draw(rule) >= rule.probability) continue
    if (await claimFiring(ctx.db, rule)) return true
  }
  return false
}
