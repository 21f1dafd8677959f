import type { Db } from '../db/connect.ts'
import { getMeta, setMeta } from '../db/meta.repository.ts'

/**
 * The kinds of asynchronous work that take time, each with its duration in seconds of the
 * (virtual) clock. 0 is instant: the work is done within the request, the default and what tests
 * expect unless they ask otherwise. Stored in the database so that every process agrees.
 */
export const WORK_KINDS = [
  'compute_create',
  'compute_boot',
  'compute_reboot',
  'compute_shutdown',
  'image_capture',
  'image_upload',
] as const
export type WorkKind = (typeof WORK_KINDS)[number]
export type WorkDurations = Record<WorkKind, number>

export const INSTANT_WORK: WorkDurations = {
  compute_create: 0,
  compute_boot: 0,
  compute_reboot: 0,
  compute_shutdown: 0,
  image_capture: 0,
  image_upload: 0,
}

/** Roughly what the real service takes for a small instance and image. */
export const REALISTIC_WORK: WorkDurations = {
  compute_create: 30,
  compute_boot: 20,
  compute_reboot: 25,
  compute_shutdown: 10,
  image_capture: 90,
  image_upload: 60,
}

/** A scheduled event turns `started` this long after the request (when the work takes time). */
export const WORK_START_DELAY_SECONDS = 1

export async function readWorkDurations(db: Db): Promise<WorkDurations> {
  const text = await getMeta(db, 'work_durations')
  if (text === undefined) return INSTANT_WORK
  return { ...INSTANT_WORK, ...(JSON.parse(text) as Partial<WorkDurations>) }
}

export async function workDuration(db: Db, kind: WorkKind): Promise<number> {
  return (await readWorkDurations(db))[kind]
}

export async function writeWorkDurations(db: Db, durations: WorkDurations): Promise<void> {
  await setMeta(db, 'work_durations', JSON.stringify(durations))
}
