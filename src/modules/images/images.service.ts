import type { BlobStore } from '../../blobs/blob-store.ts'
import { forbidden, invalidToken, notFound, scopeDenied } from '../../common/errors.ts'
import { mapPage, type PageRequest } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf } from '../../db/dialects/dialect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { enqueueJob } from '../../jobs/jobs.repository.ts'
import type { Actor } from '../auth/actor.ts'
import { hasScope } from '../auth/scopes.ts'
import { recordEvent, updateEventProgress } from '../events/events.repository.ts'
import { assertEntityGrant, grantedOnly } from '../grants/authorize.ts'
import { deleteEntityGrants } from '../grants/grants.repository.ts'
import * as repo from './images.repository.ts'
import type { Image, UpdateImageBody } from './images.schemas.ts'
import type { ImageRow } from './images.table.ts'

/** Filterable fields (api-facts 2.2); `status` filters but cannot order. */
export const IMAGE_FILTERS: FilterSpec = {
  label: { column: 'images.label', type: 'string' },
  deprecated: { column: 'images.deprecated', type: 'boolean' },
  is_public: { column: 'images.is_public', type: 'boolean' },
  size: { column: 'images.size', type: 'integer' },
  type: { column: 'images.type', type: 'string' },
  vendor: { column: 'images.vendor', type: 'string', nullable: true },
  status: { column: 'images.status', type: 'string', orderable: false },
}

export function toImage(row: ImageRow): Image {
  return {
    id: repo.wireImageId(row),
    label: row.label,
    description: row.description,
    created: row.created,
    updated: row.updated,
    size: row.size,
    created_by: row.created_by,
    type: row.type as Image['type'],
    is_public: row.is_public,
    deprecated: row.deprecated,
    vendor: row.vendor,
    expiry: row.expiry,
    eol: row.eol,
    status: row.status as Image['status'],
    capabilities: JSON.parse(row.capabilities) as string[],
  }
}

/** The event entity of a private image. */
export const imageEntity = (row: Pick<ImageRow, 'id' | 'label'>) => ({
  type: 'image',
  id: row.id,
  label: row.label,
  url: `/v4/images/private/${row.id}`,
})

/** Where an image's data lives in the blob store. */
export const imageBlobKey = (id: number): string => `images/${id}.img.gz`

/** Private images need a token allowed to read images (api-facts 11k); public ones need nothing. */
const readsPrivateImages = (actor: Actor | null): actor is Actor =>
  actor !== null && hasScope(actor.scopes, 'images:read_only')

/**
 * Without a token, the public images; with one that may read images, the account's private images
 * (a restricted user: those granted) first, then the public ones.
 */
export async function listImages(
  db: Db,
  actor: Actor | null,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Image>> {
  const compiled = compileFilter(filter, IMAGE_FILTERS, dialectOf(db))
  const scope: repo.ImageListScope = readsPrivateImages(actor)
    ? { accountId: actor.accountId, granted: grantedOnly(actor, 'image', 'images.id') }
    : { accountId: null, granted: undefined }
  return mapPage(await repo.listImages(db, scope, page, compiled), toImage)
}

/** `compute/<slug>` for anyone; `private/<n>` needs a token with `images:read_only` and a grant. */
export async function getImage(db: Db, actor: Actor | null, wireId: string): Promise<Image> {
  const parsed = repo.parseImageId(wireId)
  if (parsed === undefined) throw notFound()
  if (parsed.kind === 'public') {
    const row = await repo.findPublicImage(db, parsed.slug)
    if (row === undefined) throw notFound()
    return toImage(row)
  }
  if (actor === null) throw invalidToken()
  if (!readsPrivateImages(actor)) throw scopeDenied()
  const row = await repo.findAccountImage(db, actor.accountId, parsed.id)
  if (row === undefined) throw notFound()
  await assertEntityGrant(db, actor, 'image', row.id, 'read_only')
  return toImage(row)
}

/**
 * A private image of the actor's account, locked for a change that needs `read_write` on it.
 * A public image exists for everyone but belongs to no one: changing it is forbidden.
 */
async function lockWritableImage(db: Db, actor: Actor, wireId: string): Promise<ImageRow> {
  const parsed = repo.parseImageId(wireId)
  if (parsed === undefined) throw notFound()
  if (parsed.kind === 'public') {
    if ((await repo.findPublicImage(db, parsed.slug)) === undefined) throw notFound()
    throw forbidden()
  }
  const row = await repo.lockAccountImage(db, actor.accountId, parsed.id)
  if (row === undefined) throw notFound()
  await assertEntityGrant(db, actor, 'image', row.id, 'read_write')
  return row
}

/** Only `label` and `description` change; an `image_update` event records it. */
export async function updateImage(
  db: Db,
  clock: Clock,
  actor: Actor,
  wireId: string,
  body: UpdateImageBody,
): Promise<Image> {
  return inTransaction(db, async (trx) => {
    const row = await lockWritableImage(trx, actor, wireId)
    const changes: repo.ImageChanges = {
      ...(body.label !== undefined && { label: body.label }),
      ...(body.description !== undefined && { description: body.description }),
    }
    if (Object.keys(changes).length === 0) return toImage(row)
    const now = nowTimestamp(clock)
    const updated = await repo.updateImage(trx, row.id, { ...changes, updated: now })
    await recordEvent(trx, {
      accountId: actor.accountId,
      user: actor.user,
      action: 'image_update',
      entity: imageEntity(updated),
      grant: { type: 'image', id: updated.id },
      created: now,
    })
    return toImage(updated)
  })
}

/**
 * Deletes a private image and its stored data. The data's removal is also queued in the same
 * transaction, so it happens even if this process stops right after the commit.
 */
export async function deleteImage(
  db: Db,
  blobs: BlobStore,
  clock: Clock,
  actor: Actor,
  wireId: string,
): Promise<void> {
  const id = await inTransaction(db, async (trx) => {
    const row = await lockWritableImage(trx, actor, wireId)
    await removeImage(trx, clock, row, actor.user)
    return row.id
  })
  // The queued job would do it too; doing it now means the space is free when the call returns.
  await blobs.delete(imageBlobKey(id)).catch(() => {})
}

/** Deletes the row, its grants and (through a job) its data, with an `image_delete` event. */
export async function removeImage(
  db: Db,
  clock: Clock,
  row: ImageRow,
  user: { id: number; username: string } | null,
  message?: string,
): Promise<void> {
  const now = nowTimestamp(clock)
  await repo.deleteImage(db, row.id)
  await deleteEntityGrants(db, 'image', row.id)
  await enqueueJob(db, {
    kind: 'blob-delete',
    payload: { key: imageBlobKey(row.id) },
    runAt: now,
    created: now,
  })
  if (row.account_id === null) return
  await recordEvent(db, {
    accountId: row.account_id,
    user,
    action: 'image_delete',
    entity: imageEntity(row),
    // The image and its grants are gone: the event is for the account's unrestricted users and the actor.
    grant: null,
    ...(message !== undefined && { message }),
    created: now,
  })
}

/**
 * Job: a captured image has been "processed" and becomes available; its `disk_imagize` event
 * finishes. Idempotent: an image already available, or deleted meanwhile, is left as it is.
 */
export async function finishCapture(
  db: Db,
  clock: Clock,
  job: { imageId: number; eventId: number; started: string },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await repo.lockImage(trx, job.imageId)
    const now = nowTimestamp(clock)
    if (row?.status === 'creating') await repo.updateImage(trx, row.id, { status: 'available', updated: now })
    await updateEventProgress(trx, job.eventId, {
      status: row === undefined ? 'failed' : 'finished',
      percentComplete: row === undefined ? null : 100,
      duration: Math.max(0, Math.round((Date.parse(`${now}Z`) - Date.parse(`${job.started}Z`)) / 1000)),
    })
  })
}

/**
 * Job: the upload window of an image has closed. If no data arrived, the image is deleted, with
 * whatever partial data the store may hold for it.
 */
export async function expireUpload(db: Db, blobs: BlobStore, clock: Clock, imageId: number): Promise<void> {
  const expired = await inTransaction(db, async (trx) => {
    const row = await repo.lockImage(trx, imageId)
    if (row === undefined) return true
    if (row.status !== 'pending_upload' || row.upload_expiry === null) return false
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
