import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { ApiError, badRequest } from '../../common/errors.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { JobPayloads } from '../../jobs/job-kinds.ts'
import { enqueueJob } from '../../jobs/jobs.repository.ts'
import { WORK_START_DELAY_SECONDS, workDuration } from '../../jobs/work-durations.ts'
import { workStep } from '../../jobs/work-progress.ts'
import { onInstance } from '../compute/compute-events.ts'
import { accessDisk, findDiskInstanceId } from '../compute/disks/disks.service.ts'
import { assertNotBusy } from '../compute/instances/instance-work.service.ts'
import { buildEvent } from '../events/event-builder.ts'
import { actionUnderWay, recordEvent, updateEventProgress } from '../events/events.service.ts'
import { assertGlobalGrant } from '../grants/authorize.ts'
import { requireAvailableRegion } from '../regions/regions.service.ts'
import { imageSecondaryEntity } from './image-events.ts'
import * as repo from './images.repository.ts'
import type { CaptureImageBody, Image } from './images.schemas.ts'
import { insertPrivateImage, removeImage, toImage } from './images.service.ts'

/** Only these filesystems can be captured, as the product's guide says (docs/service-facts.md#disks). */
const CAPTURABLE = new Set(['ext3', 'ext4'])

/** Another account's disk is as unknown as one that does not exist. */
const diskNotFound = () => badRequest('Disk not found', 'disk_id')

/**
 * The disk to capture and its instance, locked, which the caller must be allowed to change. The
 * request names the disk alone, so an unknown disk is a bad request rather than a 404.
 */
async function capturedDisk(ctx: RequestContext, diskId: number) {
  const instanceId = await findDiskInstanceId(ctx, { diskId })
  if (instanceId === undefined) throw diskNotFound()
  try {
    return await accessDisk(ctx, { instanceId, diskId }, 'read_write')
  } catch (error) {
    // The disk or its instance went away since the disk was found.
    if (error instanceof ApiError && error.code === 'not_found') throw diskNotFound()
    throw error
  }
}

/**
 * Captures a private image from a disk of one of the account's instances. The image comes back
 * `creating` at once, with the disk's size; a job makes it `available` and finishes the
 * `disk_imagize` event recorded here on the instance, with the image as secondary entity.
 */
export async function captureImage(ctx: RequestContext, body: CaptureImageBody): Promise<Image> {
  return inContextTransaction(ctx, async (tx) => {
    const { actor } = tx
    await assertGlobalGrant(tx.db, actor, 'add_images')
    const { disk, instance } = await capturedDisk(tx, body.disk_id)
    if (!CAPTURABLE.has(disk.filesystem)) {
      throw badRequest('Only ext3 and ext4 disks can be captured as images', 'disk_id')
    }
    if (disk.status !== 'ready') throw badRequest('Disk is not ready', 'disk_id')
    // A disk operation waits for the instance's other work, as on the real service: its power
    // action, or another timed capture (the instance is locked, so two cannot both pass). Instant
    // work is done as far as clients can tell (the job only finishes its record): no wait.
    assertNotBusy(instance)
    const seconds = await workDuration(tx.db, 'image_capture')
    const capturing = { type: 'compute', id: instance.id }
    if (seconds > 0 && (await actionUnderWay(tx.db, actor.accountId, capturing, 'disk_imagize'))) {
      throw badRequest('This Compute is busy (an image is being captured); wait for it to finish')
    }
    // The image is made in the instance's region: none is made there during an outage.
    await requireAvailableRegion(tx, { regionId: instance.region }, 'disk_id')

    const now = nowTimestamp(tx.clock)
    const image = await insertPrivateImage(
      tx,
      {
        label: body.label ?? disk.label,
        description: body.description,
        cloudInit: body.cloud_init,
        tags: body.tags,
        region: instance.region,
        status: 'creating',
        size: disk.size,
      },
      now,
    )
    // Instant unless the emulator is told the work takes time; then the event is scheduled and
    // a job moves it along (see jobs/work-progress.ts).
    const eventId = await recordEvent(
      tx.db,
      buildEvent(
        actor,
        'disk_imagize',
        {
          ...onInstance(instance, imageSecondaryEntity(image)),
          status: seconds > 0 ? 'scheduled' : 'started',
          percentComplete: 0,
        },
        now,
      ),
    )
    await enqueueJob(tx.db, {
      kind: 'image-capture',
      payload: { imageId: image.id, eventId, started: now, seconds },
      runAt: seconds > 0 ? addSeconds(now, WORK_START_DELAY_SECONDS) : now,
      created: now,
    })
    return toImage(image)
  })
}

/**
 * Job: a captured image has been "processed" and becomes available; its `disk_imagize` event
 * finishes. Idempotent: an image already available, or deleted meanwhile, is left as it is.
 */
export async function finishCapture(
  db: Db,
  clock: Clock,
  job: JobPayloads['image-capture'],
  /** Whether a fault rule makes this capture fail: the image is then removed, as on the real service. */
  fails: () => Promise<boolean> = async () => false,
): Promise<void> {
  const step = job.seconds ? workStep(job.started, job.seconds, nowTimestamp(clock)) : undefined
  if (step !== undefined && !step.done) {
    await inTransaction(db, async (trx) => {
      const now = nowTimestamp(clock)
      await updateEventProgress(trx, job.eventId, {
        status: 'started',
        percentComplete: step.percentComplete,
        timeRemaining: step.timeRemaining,
      })
      await enqueueJob(trx, { kind: 'image-capture', payload: job, runAt: step.nextStep, created: now })
    })
    return
  }
  const failed = await fails()
  await inTransaction(db, async (trx) => {
    const row = await repo.lockImage(trx, job.imageId)
    const now = nowTimestamp(clock)
    if (row?.status === 'creating') {
      // Removed as an image never made is: with its grants, its data and an `image_delete` event.
      if (failed) await removeImage(trx, clock, row, null, 'The image could not be captured')
      else await repo.updateImage(trx, row.id, { status: 'available', updated: now })
    }
    const ok = row !== undefined && !failed
    await updateEventProgress(trx, job.eventId, {
      status: ok ? 'finished' : 'failed',
      percentComplete: ok ? 100 : null,
      duration:
        step?.duration ??
        Math.max(0, Math.round((Date.parse(`${now}Z`) - Date.parse(`${job.started}Z`)) / 1000)),
    })
  })
}
