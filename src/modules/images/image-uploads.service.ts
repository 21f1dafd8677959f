import { createHash, randomBytes } from 'node:crypto'
import { PassThrough, type Readable } from 'node:stream'
import type { BlobStore } from '../../blobs/blob-store.ts'
import { ApiError, badRequest, notFound } from '../../common/errors.ts'
import { addSeconds, type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { enqueueJob } from '../../jobs/jobs.repository.ts'
import type { Actor } from '../auth/actor.ts'
import { sameDigest } from '../auth/token-secret.ts'
import { recordEvent } from '../events/events.repository.ts'
import { assertGlobalGrant, grantToCreator } from '../grants/authorize.ts'
import { findRegion } from '../regions/regions.repository.ts'
import { receiveImageData, type UploadLimits, uploadTooLarge } from './image-data.ts'
import * as repo from './images.repository.ts'
import type { Image, UploadImageBody } from './images.schemas.ts'
import { imageBlobKey, imageEntity, toImage } from './images.service.ts'
import type { ImageRow } from './images.table.ts'

/** Data must arrive within 24 hours, or the upload is cancelled and the image deleted. */
export const UPLOAD_WINDOW_SECONDS = 24 * 3600

/** Path of the upload URL, under the server's public base URL. */
export const UPLOAD_PATH = '/image-uploads'

const MIB = 1024 * 1024

const hashUploadToken = (token: string): string => createHash('sha256').update(token).digest('hex')

/**
 * Creates a private image in `pending_upload` and the URL its data goes to. The URL carries a
 * 256-bit random secret, stored only as its hash, that opens this one upload and nothing else.
 */
export async function createUpload(
  db: Db,
  clock: Clock,
  actor: Actor,
  body: UploadImageBody,
  publicUrl: string,
): Promise<{ upload_to: string; image: Image }> {
  await assertGlobalGrant(db, actor, 'add_images')
  if ((await findRegion(db, body.region)) === undefined) throw badRequest('Region not found', 'region')
  const token = randomBytes(32).toString('base64url')
  const now = nowTimestamp(clock)
  const expiry = addSeconds(now, UPLOAD_WINDOW_SECONDS)
  const row = await inTransaction(db, async (trx) => {
    const image = await repo.insertImage(trx, {
      slug: null,
      account_id: actor.accountId,
      label: body.label,
      description: body.description === undefined ? '' : body.description,
      created_by: actor.user.username,
      type: 'manual',
      status: 'pending_upload',
      size: 0,
      capabilities: JSON.stringify(body.cloud_init ? ['cloud-init'] : []),
      is_public: false,
      deprecated: false,
      vendor: null,
      eol: null,
      expiry: null,
      created: now,
      updated: now,
      creator_user_id: actor.user.id,
      region: body.region,
      upload_token_hash: hashUploadToken(token),
      upload_state: 'waiting',
      upload_expiry: expiry,
    })
    await grantToCreator(trx, actor, 'image', image.id)
    await enqueueJob(trx, {
      kind: 'image-upload-expiry',
      payload: { imageId: image.id },
      runAt: expiry,
      created: now,
    })
    return image
  })
  return { upload_to: `${publicUrl}${UPLOAD_PATH}/${token}`, image: toImage(row) }
}

export interface ReceiveUploadInput {
  token: string
  /** The request body, or undefined when none was sent. */
  body: Readable | undefined
  /** The declared Content-Length, when there is one. */
  declaredBytes: number | undefined
}

const usedUrl = () => new ApiError('forbidden', [{ reason: 'This upload URL has already been used' }])
const expiredUrl = () => new ApiError('forbidden', [{ reason: 'This upload URL has expired' }])
const busyUrl = () => new ApiError('conflict', [{ reason: 'An upload to this URL is already in progress' }])

/** Why an upload URL cannot take data now, or undefined when it can. */
function refusal(row: ImageRow, now: string): ApiError | undefined {
  if (row.status !== 'pending_upload' || row.upload_state === 'received') return usedUrl()
  if (row.upload_expiry === null || row.upload_expiry <= now) return expiredUrl()
  if (row.upload_state === 'receiving') return busyUrl()
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
  if (!(await inTransaction(db, (trx) => repo.claimUpload(trx, found.id, nowTimestamp(clock))))) {
    const again = await repo.findImageByUploadTokenHash(db, hash)
    throw (again && refusal(again, nowTimestamp(clock))) ?? notFound()
  }

  const key = imageBlobKey(found.id)
  let stored = false
  try {
    const data = await streamIntoStore(blobs, key, input.body, limits)
    stored = true
    return await inTransaction(db, async (trx) => {
      const row = await repo.lockImage(trx, found.id)
      // Deleted, or expired and removed, while the data was arriving.
      if (row === undefined || row.upload_state !== 'receiving') throw notFound()
      const now = nowTimestamp(clock)
      const updated = await repo.updateImage(trx, row.id, {
        status: 'available',
        size: Math.ceil(data.uncompressedBytes / MIB),
        upload_state: 'received',
        blob_key: key,
        stored_bytes: data.compressedBytes,
        uncompressed_bytes: data.uncompressedBytes,
        checksum: data.sha256,
        updated: now,
      })
      await recordEvent(trx, {
        accountId: updated.account_id as number,
        user:
          updated.creator_user_id === null || updated.created_by === null
            ? null
            : { id: updated.creator_user_id, username: updated.created_by },
        action: 'image_upload',
        entity: imageEntity(updated),
        status: 'finished',
        percentComplete: 100,
        grant: { type: 'image', id: updated.id },
        created: now,
      })
      return toImage(updated)
    })
  } catch (error) {
    if (stored) await blobs.delete(key).catch(() => {})
    await inTransaction(db, (trx) => repo.releaseUpload(trx, found.id)).catch(() => {})
    throw error
  }
}

/**
 * Streams the upload into the store under `key` while checking it. The store's input is ended only
 * once every check has passed, so refused data never becomes an object in the store.
 */
async function streamIntoStore(
  blobs: BlobStore,
  key: string,
  body: Readable,
  limits: UploadLimits,
): Promise<Awaited<ReturnType<typeof receiveImageData>>> {
  const toStore = new PassThrough({ highWaterMark: MIB })
  const stored = blobs.put(key, toStore)
  // If the store fails first (disk full), stop reading the upload at once.
  const storeFailed = new AbortController()
  stored.catch((error: unknown) => storeFailed.abort(error))
  try {
    const data = await receiveImageData(body, toStore, limits, storeFailed.signal)
    toStore.end()
    await stored
    return data
  } catch (error) {
    toStore.destroy(error as Error)
    await stored.catch(() => {})
    throw error
  }
}
