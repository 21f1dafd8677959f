import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { updateEventProgress } from '../events/events.service.ts'
import * as repo from './volumes.repository.ts'

/**
 * Job: a volume's provisioning or resize is done; it becomes `active` and its event finishes.
 * Idempotent: an active volume stays as it is, and a deleted one fails its event.
 */
export async function finishVolumeWork(
  db: Db,
  clock: Clock,
  job: { volumeId: number; eventId: number; started: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await repo.lockVolume(trx, job.volumeId)
    const now = nowTimestamp(clock)
    if (row !== undefined && row.status !== 'active') {
      await repo.updateVolume(trx, row.id, { status: 'active', updated: now })
    }
    await updateEventProgress(trx, job.eventId, {
      status: row === undefined ? 'failed' : 'finished',
      percentComplete: row === undefined ? null : 100,
      duration: Math.max(0, Math.round((Date.parse(`${now}Z`) - Date.parse(`${job.started}Z`)) / 1000)),
    })
  })
}
