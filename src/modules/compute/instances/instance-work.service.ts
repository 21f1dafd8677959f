import { badRequest } from '../../../common/errors.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../../common/time.ts'
import type { Db } from '../../../db/connect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { JobPayloads } from '../../../jobs/job-kinds.ts'
import { enqueueJob } from '../../../jobs/jobs.repository.ts'
import { WORK_START_DELAY_SECONDS, type WorkKind, workDuration } from '../../../jobs/work-durations.ts'
import { workStep } from '../../../jobs/work-progress.ts'
import { buildEvent, type EventParts, type EventSource } from '../../events/event-builder.ts'
import { recordEvent, updateEventProgress } from '../../events/events.service.ts'
import { configEntity, onInstance } from '../compute-events.ts'
import { findInstanceConfig } from '../configs/configs.repository.ts'
import { lockInstanceById } from './instance-work.repository.ts'
import { setActiveConfig, updateInstance } from './instances.repository.ts'
import type { InstanceRow } from './instances.table.ts'

/**
 * Work on an instance that takes time (when its duration is set above instant): the request
 * leaves the instance in the transitional status and a `scheduled` event; a job then moves the
 * event to `started` with `percent_complete` and `time_remaining` moving, and at the end to
 * `finished` (or `failed`, when a fault rule says so) with the instance in its final status.
 * Every step follows the virtual clock: advancing it completes what is due.
 */

type InstanceWork = JobPayloads['instance-work']

/** The status while the work runs, and after it succeeds or fails (as the real service leaves it). */
const STATES: Record<
  Exclude<WorkKind, 'image_capture' | 'image_upload'>,
  {
    during: string
    done: string
    failed: string
    action: 'compute_create' | 'compute_boot' | 'compute_reboot' | 'compute_shutdown'
  }
> = {
  compute_create: { during: 'provisioning', done: 'offline', failed: 'offline', action: 'compute_create' },
  compute_boot: { during: 'booting', done: 'running', failed: 'offline', action: 'compute_boot' },
  compute_reboot: { during: 'rebooting', done: 'running', failed: 'offline', action: 'compute_reboot' },
  compute_shutdown: {
    during: 'shutting_down',
    done: 'offline',
    failed: 'running',
    action: 'compute_shutdown',
  },
}
type InstanceWorkKind = keyof typeof STATES

const TRANSITIONAL = new Set(Object.values(STATES).map((s) => s.during))

/** A power action on an instance whose last one has not finished. */
export function assertNotBusy(instance: InstanceRow): void {
  if (TRANSITIONAL.has(instance.status)) {
    throw badRequest(`This Compute is busy (${instance.status}); wait for it to finish`)
  }
}

/** How long this kind of work takes now (0: instant, done within the request). */
export const instanceWorkSeconds = (db: Db, work: InstanceWorkKind): Promise<number> => workDuration(db, work)

/**
 * Starts timed work from within the request's transaction: the transitional status, the
 * `scheduled` event and the first job step. Returns the instance as it now is.
 */
export async function scheduleInstanceWork(
  db: Db,
  source: EventSource,
  instance: InstanceRow,
  work: InstanceWorkKind,
  options: {
    seconds: number
    configId: number | null
    boot?: boolean
    /** The event's secondary entity, when not the booted profile (a create: its image). */
    secondary?: EventParts['secondary']
    now: string
  },
): Promise<InstanceRow> {
  const state = STATES[work]
  const next = await updateInstance(db, instance.id, {
    status: state.during,
    ...(options.configId !== null && work !== 'compute_create' && { booted_config_id: options.configId }),
    updated: options.now,
  })
  const config =
    options.secondary !== undefined || options.configId === null
      ? undefined
      : await findInstanceConfig(db, instance.id, options.configId)
  const secondary = options.secondary ?? (config === undefined ? null : configEntity(instance.id, config))
  const eventId = await recordEvent(
    db,
    buildEvent(
      source,
      state.action,
      { ...onInstance(next, secondary), status: 'scheduled', percentComplete: 0 },
      options.now,
    ),
  )
  const payload: InstanceWork = {
    instanceId: instance.id,
    eventId,
    work,
    scheduled: options.now,
    seconds: options.seconds,
    configId: options.configId,
    boot: options.boot ?? false,
    source: {
      accountId: source.accountId,
      user: source.user && { id: source.user.id, username: source.user.username },
    },
  }
  await enqueueJob(db, {
    kind: 'instance-work',
    payload,
    runAt: addSeconds(options.now, WORK_START_DELAY_SECONDS),
    created: options.now,
  })
  return next
}

/** Job: one step of timed work (progress, or the end). Idempotent per step. */
export async function advanceInstanceWork(
  context: { db: Db; clock: Clock; workFails?: (work: WorkKind) => Promise<boolean> },
  job: InstanceWork,
): Promise<void> {
  const { db, clock } = context
  const now = nowTimestamp(clock)
  const step = workStep(job.scheduled, job.seconds, now)
  // Asked outside the transaction: the rule's count is shared with every process.
  const fails = step.done && context.workFails !== undefined ? await context.workFails(job.work) : false
  await inTransaction(db, async (trx) => {
    const instance = await lockInstanceById(trx, job.instanceId)
    if (instance === undefined) {
      await updateEventProgress(trx, job.eventId, { status: 'failed' })
      return
    }
    if (!step.done) {
      await updateEventProgress(trx, job.eventId, {
        status: 'started',
        percentComplete: step.percentComplete,
        timeRemaining: step.timeRemaining,
      })
      await enqueueJob(trx, { kind: 'instance-work', payload: job, runAt: step.nextStep, created: now })
      return
    }
    const state = STATES[job.work as InstanceWorkKind]
    const status = fails ? state.failed : state.done
    // A running instance's interfaces are those of the profile it booted: the one this work boots,
    // or, when a shutdown fails, the one it was running.
    const active = status === 'running' ? (job.configId ?? instance.booted_config_id) : null
    // When the work ended, never before a change made to the instance meanwhile.
    const ended = step.endedAt > instance.updated ? step.endedAt : instance.updated
    await updateInstance(trx, instance.id, { status, updated: ended })
    if (job.work !== 'compute_create') await setActiveConfig(trx, instance.id, active)
    await updateEventProgress(trx, job.eventId, {
      status: fails ? 'failed' : 'finished',
      percentComplete: fails ? null : 100,
      duration: step.duration,
    })
    if (!fails && job.work === 'compute_create' && job.boot && job.configId !== null) {
      await scheduleInstanceWork(trx, job.source, instance, 'compute_boot', {
        seconds: Math.max(1, await instanceWorkSeconds(trx, 'compute_boot')),
        configId: job.configId,
        // The boot follows the create's end, not the moment its job ran: one clock move past both
        // completes both.
        now: ended,
      })
    }
  })
}
