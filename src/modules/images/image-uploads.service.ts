import { createHash } from 'node:crypto'
import type { Readable } from 'node:stream'
import type { BlobStore } from '../../blobs/blob-store.ts'
import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { ApiError, badRequest, notFound } from '../../common/errors.ts'
import { randomBytes } from '../../common/random.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import type { JobPayloads } from '../../jobs/job-kinds.ts'
import { cancelJob, enqueueJob } from '../../jobs/jobs.repository.ts'
import { WORK_START_DELAY_SECONDS, workDuration } from '../../jobs/work-durations.ts'
import { workStep } from '../../jobs/work-progress.ts'
import { lockAccount } from '../accounts/accounts.service.ts'
import { sameDigest } from '../auth/token-secret.ts'
import { buildEvent } from '../events/event-builder.ts'
import { recordEvent, updateEventProgress } from '../events/events.service.ts'
import { assertGlobalGrant } from '../grants/authorize.ts'
import { requireAvailableRegion } from '../regions/regions.service.ts'
import { receiveImageData, type UploadLimits, uploadTooLarge } from './image-data.ts'
import { imageEntity, imageGrant } from './image-events.ts'
import * as repo from './images.repository.ts'
import type { Image, UploadImageBody } from './images.schemas.ts'
import { imageBlobKey, insertPrivateImage, removeImage, toImage } from './images.service.ts'
import type { ImageRow } from './images.table.ts'

/** Data must arrive within 24 hours, or the upload is cancelled and the image deleted. */
export const UPLOAD_WINDOW_SECONDS = 24 * 3600

/**
 * How long a claim on an upload URL holds without renewal: the process streaming the data renews
 * it every LEASE_RENEW_MS, so a claim outlives its process (kill -9, a crash) by this much at most.
 */
export const UPLOAD_LEASE_SECONDS = 10
const LEASE_RENEW_MS = 3000

/** Path of the upload URL, under the server's public base URL. */
export const UPLOAD_PATH = '/image-uploads'

const MIB = 1024 * 1024

const hashUploadToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/**
 * Creates a private image in `pending_upload` and the URL its data goes to. The URL carries a
 * 256-bit random secret, stored only as its hash, that opens this one upload and nothing else.
 */
export async function createUpload(
  ctx: RequestContext,
  body: UploadImageBody,
  settings: { publicUrl: string; maxPendingUploads: number },
): Promise<{ upload_to: string; image: Image }> {
  const { actor } = ctx
  await assertGlobalGrant(ctx.db, actor, 'add_images')
  await requireAvailableRegion(ctx, { regionId: body.region })
  const token = randomBytes(32).toString('base64url')
  const now = nowTimestamp(ctx.clock)
  const expiry = addSeconds(now, UPLOAD_WINDOW_SECONDS)
  const row = await inContextTransaction(ctx, async (tx) => {
    // Each waiting upload holds a URL, a row and a job: an account cannot pile them up. Counted
    // under the account's lock, so that creates sent at once are counted one after another.
    await lockAccount(tx)
    if ((await repo.countPendingUploads(tx.db, actor.accountId)) >= settings.maxPendingUploads) {
      throw badRequest(
        `At most ${settings.maxPendingUploads} images may wait for their data at once; upload or delete those first`,
      )
    }
    const image = await insertPrivateImage(
      tx,
      {
        label: body.label,
        description: body.description,
        cloudInit: body.cloud_init,
        tags: body.tags,
        region: body.region,
        status: 'pending_upload',
        size: 0,
        upload: { upload_token_hash: hashUploadToken(token), upload_state: 'waiting', upload_expiry: expiry },
      },
      now,
    )
    await enqueueJob(tx.db, {
      kind: 'image-upload-expiry',
      payload: { imageId: image.id },
      runAt: expiry,
      created: now,
    })
    return image
  })
  return { upload_to: `${settings.publicUrl}${UPLOAD_PATH}/${token}`, image: toImage(row) }
}

export interface ReceiveUploadInput {
  token: string
  /** The request body, or undefined when none was sent. */
  body: Readable | undefined
  /** The declared Content-Length, when there is one. */
  declaredBytes: number | undefined
  /**
   * The body's chunks are this upload's alone (a request read from a socket), so their memory may
   * be freed as soon as they are stored; an injected request's chunks may be its caller's.
   */
  ownChunks?: boolean
  /** Aborted when the server closes: the upload stops with the signal's reason and lets go of the URL. */
  stop?: AbortSignal
}

const usedUrl = () => new ApiError('forbidden', [{ reason: 'This upload URL has already been used' }])
const expiredUrl = () => new ApiError('forbidden', [{ reason: 'This upload URL has expired' }])
const busyUrl = () => new ApiError('conflict', [{ reason: 'An upload to this URL is already in progress' }])

/** Why an upload URL cannot take data now, or undefined when it can. */
function refusal(row: ImageRow, now: string): ApiError | undefined {
  if (row.status !== 'pending_upload' || row.upload_state === 'received') return usedUrl()
  if (row.upload_expiry === null || row.upload_expiry <= now) return expiredUrl()
  // A lease that lapsed belongs to a process that died: the URL takes the data again.
  if (row.upload_state === 'receiving' && row.upload_lease_expiry !== null && row.upload_lease_expiry > now) {
    return busyUrl()
  }
  return undefined
}

/**
 * Receives the data PUT to an upload URL: streamed through gzip decompression and SHA-256 into
 * the blob store, checked on the way. Only data that passed every check is kept; then the image
 * becomes `available` with its size, checksum and an `image_upload` event, and the URL is spent.
 * A refused upload keeps nothing and leaves the URL usable for corrected data until it expires.
 */
export async function receiveUpload(
  deps: { db: Db; blobs: BlobStore; clock: Clock },
  input: ReceiveUploadInput,
  limits: UploadLimits,
): Promise<Image> {
  const { db, blobs, clock } = deps
  const hash = hashUploadToken(input.token)
  const found = await repo.findImageByUploadTokenHash(db, hash)
  if (found === undefined || found.upload_token_hash === null || !sameDigest(found.upload_token_hash, hash)) {
    throw notFound()
  }
  const refused = refusal(found, nowTimestamp(clock))
  if (refused) throw refused
  if (input.declaredBytes !== undefined && input.declaredBytes > limits.maxCompressedBytes) {
    throw uploadTooLarge(limits.maxCompressedBytes)
  }
  if (input.body === undefined) {
    throw badRequest('No image data was sent: PUT the gzip-compressed raw disk image as the request body')
  }
  const owner = randomBytes(16).toString('hex')
  const leaseFromNow = () => ({ owner, expiry: addSeconds(nowTimestamp(clock), UPLOAD_LEASE_SECONDS) })
  const leaseJob = await inTransaction(db, async (trx) => {
    const now = nowTimestamp(clock)
    if (!(await repo.claimUpload(trx, found.id, leaseFromNow(), now))) return undefined
    // Should this process die mid-stream, the URL is given back when the lease lapses.
    return enqueueJob(trx, {
      kind: 'image-upload-lease',
      payload: { imageId: found.id },
      runAt: addSeconds(now, UPLOAD_LEASE_SECONDS),
      created: now,
    })
  })
  if (leaseJob === undefined) {
    const again = await repo.findImageByUploadTokenHash(db, hash)
    throw (again && refusal(again, nowTimestamp(clock))) ?? notFound()
  }

  const key = imageBlobKey(found.id)
  // What an earlier, interrupted stream into this image left behind.
  await blobs.delete(key)
  const lost = new AbortController()
  const renewal = setInterval(() => {
    repo.renewUploadLease(db, found.id, leaseFromNow()).then(
      async (held) => {
        if (!held && !lost.signal.aborted) lost.abort(await lostClaim(db, hash, owner, clock))
      },
      // The database is away for a moment: the next renewal tries again.
      () => {},
    )
  }, LEASE_RENEW_MS)
  let stored = false
  try {
    const stop = input.stop === undefined ? lost.signal : AbortSignal.any([lost.signal, input.stop])
    const data = await streamIntoStore(blobs, key, { ...input, body: input.body }, limits, stop)
    stored = true
    return await inTransaction(db, async (trx) => {
      const row = await repo.lockImage(trx, found.id)
      // Deleted, or expired and removed, while the data was arriving.
      if (row === undefined || row.upload_state !== 'receiving') throw notFound()
      // Taken over after this claim lapsed (this process stalled longer than the lease).
      if (row.upload_lease_owner !== owner) throw busyUrl()
      const now = nowTimestamp(clock)
      // Checking the data takes time when the emulator is told so (instant by default): the image
      // stays `pending_upload`, its URL spent, until a job has moved the event to `finished`.
      const seconds = await workDuration(trx, 'image_upload')
      const checking = seconds > 0
      const updated = await repo.updateImage(trx, row.id, {
        status: checking ? 'pending_upload' : 'available',
        size: Math.ceil(data.uncompressedBytes / MIB),
        upload_state: 'received',
        upload_lease_owner: null,
        upload_lease_expiry: null,
        blob_key: key,
        stored_bytes: data.compressedBytes,
        uncompressed_bytes: data.uncompressedBytes,
        checksum: data.sha256,
        updated: now,
      })
      // The upload's creator did it, though no token came with the data.
      const creator =
        updated.creator_user_id === null || updated.created_by === null
          ? null
          : { id: updated.creator_user_id, username: updated.created_by }
      const eventId = await recordEvent(
        trx,
        buildEvent(
          { accountId: updated.account_id as number, user: creator },
          'image_upload',
          {
            entity: imageEntity(updated),
            grant: imageGrant(updated),
            status: checking ? 'scheduled' : 'finished',
            percentComplete: checking ? 0 : 100,
          },
          now,
        ),
      )
      if (checking) {
        await enqueueJob(trx, {
          kind: 'image-upload-check',
          payload: { imageId: row.id, eventId, scheduled: now, seconds },
          runAt: addSeconds(now, WORK_START_DELAY_SECONDS),
          created: now,
        })
      }
      return toImage(updated)
    })
  } catch (error) {
    const released = await inTransaction(db, (trx) => repo.releaseUpload(trx, found.id, owner)).catch(
      () => false,
    )
    // Once the claim is taken over, the key belongs to whoever took the upload.
    if (stored && (released || !(await takenOver(db, hash, owner)))) {
      await blobs.delete(key).catch(() => {})
    }
    throw error
  } finally {
    clearInterval(renewal)
    // The guard against this process dying mid-stream is not needed any more.
    await cancelJob(db, leaseJob).catch(() => {})
  }
}

/**
 * Why a renewal found the claim gone: the image deleted (404), another PUT holding the URL (409),
 * or the URL spent or expired meanwhile.
 */
async function lostClaim(db: Db, tokenHash: string, owner: string, clock: Clock): Promise<ApiError> {
  const row = await repo.findImageByUploadTokenHash(db, tokenHash).catch(() => null)
  if (row === null) return busyUrl()
  if (row === undefined) return notFound()
  const current = row.upload_lease_owner
  if (current !== null && current !== owner) return busyUrl()
  return refusal(row, nowTimestamp(clock)) ?? busyUrl()
}

/** Whether another PUT claimed the upload after this one's lease lapsed. */
async function takenOver(db: Db, tokenHash: string, owner: string): Promise<boolean> {
  const row = await repo.findImageByUploadTokenHash(db, tokenHash).catch(() => undefined)
  const current = row?.upload_lease_owner ?? null
  return current !== null && current !== owner
}

/**
 * Streams the upload into the store under `key` while checking it. The object is committed only
 * once every check has passed, so refused data never becomes an object in the store.
 */
async function streamIntoStore(
  blobs: BlobStore,
  key: string,
  input: ReceiveUploadInput & { body: Readable },
  limits: UploadLimits,
  stop: AbortSignal,
): Promise<Awaited<ReturnType<typeof receiveImageData>>> {
  const writer = await blobs.create(key)
  try {
    const data = await receiveImageData(input.body, writer, limits, {
      signal: stop,
      ownChunks: input.ownChunks === true,
    })
    await writer.commit()
    return data
  } catch (error) {
    await writer.abort()
    throw error
  }
}

/**
 * Job: the upload window of an image has closed. If no data arrived, the image is deleted, with
 * whatever partial data the store may hold for it.
 */
export async function expireUpload(db: Db, blobs: BlobStore, clock: Clock, imageId: number): Promise<void> {
  const expired = await inTransaction(db, async (trx) => {
    const row = await repo.lockImage(trx, imageId)
    if (row === undefined) return true
    // Data that arrived is being checked: the window no longer applies.
    if (row.status !== 'pending_upload' || row.upload_expiry === null || row.upload_state === 'received')
      return false
    const now = nowTimestamp(clock)
    if (row.upload_expiry > now) {
      // Run early (the clock was moved back): look again when the window really closes.
      await enqueueJob(trx, {
        kind: 'image-upload-expiry',
        payload: { imageId },
        runAt: row.upload_expiry,
        created: now,
      })
      return false
    }
    await removeImage(trx, clock, row, null, 'The image data was not uploaded within 24 hours')
    return true
  })
  if (expired) await blobs.delete(imageBlobKey(imageId))
}

/**
 * Job: a step of checking uploaded data, when that takes time. Until its end the `image_upload`
 * event is `started` with `percent_complete` and `time_remaining` moving; then the image becomes
 * `available` and the event `finished`, or, when a fault rule fails the check, the image is
 * removed with its data and the event `failed` (see docs/decisions.md#timed-work). Idempotent: an
 * image already checked is left as it is.
 */
export async function advanceUploadCheck(
  deps: { db: Db; clock: Clock },
  job: JobPayloads['image-upload-check'],
  fails: () => Promise<boolean>,
): Promise<void> {
  const now = nowTimestamp(deps.clock)
  const step = workStep(job.scheduled, job.seconds, now)
  // Asked outside the transaction: the rule's count is shared with every process.
  const failed = step.done ? await fails() : false
  await inTransaction(deps.db, async (trx) => {
    const row = await repo.lockImage(trx, job.imageId)
    if (row === undefined) {
      // Deleted while it was being checked.
      await updateEventProgress(trx, job.eventId, { status: 'failed' })
      return
    }
    if (row.status !== 'pending_upload' || row.upload_state !== 'received') return
    if (!step.done) {
      await updateEventProgress(trx, job.eventId, {
        status: 'started',
        percentComplete: step.percentComplete,
        timeRemaining: step.timeRemaining,
      })
      await enqueueJob(trx, { kind: 'image-upload-check', payload: job, runAt: step.nextStep, created: now })
      return
    }
    if (failed) await removeImage(trx, deps.clock, row, null, 'The uploaded image could not be processed')
    else await repo.updateImage(trx, row.id, { status: 'available', updated: now })
    await updateEventProgress(trx, job.eventId, {
      status: failed ? 'failed' : 'finished',
      percentComplete: failed ? null : 100,
      duration: step.duration,
    })
  })
}

/**
 * Job: an upload's lease has come due. If its process died mid-stream (the lease lapsed), the URL
 * takes data again and what the stream left in the store is removed; if the lease was renewed,
 * look again when it would lapse.
 */
export async function expireUploadLease(
  db: Db,
  blobs: BlobStore,
  clock: Clock,
  imageId: number,
): Promise<void> {
  const released = await inTransaction(db, async (trx) => {
    const row = await repo.lockImage(trx, imageId)
    if (row === undefined || row.upload_state !== 'receiving') return false
    const now = nowTimestamp(clock)
    if (row.upload_lease_expiry !== null && row.upload_lease_expiry > now) {
      await enqueueJob(trx, {
        kind: 'image-upload-lease',
        payload: { imageId },
        runAt: row.upload_lease_expiry,
        created: now,
      })
      return false
    }
    return repo.releaseLapsedUpload(trx, imageId, now)
  })
  if (released) await blobs.delete(imageBlobKey(imageId))
}
