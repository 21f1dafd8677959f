import type { BlobStore } from '../../blobs/blob-store.ts'
import { inContextTransaction, type PublicContext, type RequestContext } from '../../common/context.ts'
import { forbidden, invalidToken, notFound, scopeDenied } from '../../common/errors.ts'
import type { ListQuery } from '../../common/pagination.ts'
import { pageKey, renderedPagesOf } from '../../common/rendered-page-cache.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { enqueueJob } from '../../jobs/jobs.repository.ts'
import type { Actor } from '../auth/actor.ts'
import { hasScope } from '../auth/scopes.ts'
import { buildEvent, type EventSource } from '../events/event-builder.ts'
import { recordEvent } from '../events/events.service.ts'
import { assertEntityGrant, grantedListScope, grantToCreator } from '../grants/authorize.ts'
import { accessAccountEntity } from '../grants/entity-access.ts'
import type { Permission } from '../grants/grant-types.ts'
import { deleteEntityGrants } from '../grants/grants.service.ts'
import { imageEntity, imageGrant } from './image-events.ts'
import { parseImageId, wireImageId } from './image-ids.ts'
import * as repo from './images.repository.ts'
import type { Image, UpdateImageBody } from './images.schemas.ts'
import type { ImageRow, ImageStatus, NewImageRow } from './images.table.ts'

/** An image named by its wire id: `compute/<slug>` or `private/<n>`. */
export interface ImageIds {
  imageId: string
}

export function toImage(row: ImageRow): Image {
  return {
    id: wireImageId(row),
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
    // The fields of later versions (images.schemas.ts; image-json.ts renders the same).
    tags: JSON.parse(row.tags) as string[],
    total_size: row.size,
    regions: row.region === null ? [] : [{ region: row.region, status: regionStatus(row.status) }],
  }
}

/** An image's status in its region: the real service says `pending` while it waits for data. */
const regionStatus = (status: string) => (status === 'pending_upload' ? 'pending' : status)

/** Tags as an image keeps them: sorted, each once (as the real service answers them). */
export const imageTags = (tags: string[]): string => JSON.stringify([...new Set(tags)].sort())

/** Where an image's data lives in the blob store. */
export const imageBlobKey = (id: number): string => `images/${id}.img.gz`

/**
 * Private images need a token allowed to read images; public ones need nothing
 * (docs/decisions.md#images-without-a-token).
 */
const readsPrivateImages = (actor: Actor | null | undefined): actor is Actor =>
  actor != null && hasScope(actor.scopes, 'images:read_only')

/**
 * The one access path to an image: a public image for anyone (to read; changing one is forbidden,
 * it belongs to no one), a private one of the caller's account (404 otherwise, before any grant is
 * consulted) with the grant `permission` needs. A private image to be changed is row-locked.
 */
export async function accessImage(
  ctx: PublicContext,
  { imageId }: ImageIds,
  permission: Permission,
): Promise<ImageRow> {
  const parsed = parseImageId(imageId)
  if (parsed === undefined) throw notFound()
  if (parsed.kind === 'public') {
    const row = await repo.findPublicImage(ctx.db, parsed.slug)
    if (row === undefined) throw notFound()
    if (permission === 'read_write') throw forbidden()
    return row
  }
  const { actor } = ctx
  if (actor == null) throw invalidToken()
  if (!readsPrivateImages(actor)) throw scopeDenied()
  return accessAccountEntity({ db: ctx.db, actor }, 'image', permission, (options) =>
    repo.findAccountImage(ctx.db, actor.accountId, parsed.id, options),
  )
}

/**
 * Without a token, the public images; with one that may read images, the account's private images
 * (a restricted user: those granted) first, then the public ones. The page as wire JSON, in the
 * recorded envelope order (`pages, data, results, page`).
 */
export async function listImagesJson(
  ctx: PublicContext,
  { page, filter }: ListQuery,
  laterFields: boolean,
): Promise<string> {
  const { actor } = ctx
  const scope: repo.ImageListScope = readsPrivateImages(actor)
    ? grantedListScope(actor)
    : { accountId: null, restrictedUserId: null }
  const found = await repo.listImageJson(ctx.db, scope, page, filter, laterFields)
  return `{"pages":${found.pages},"data":[${found.data.join(',')}],"results":${found.results},"page":${found.page}}`
}

/** Moved by every change to an image, public or private (its triggers). */
const IMAGES_COUNTER = 'images'

/**
 * The page for a caller with a token, from the pages kept (common/rendered-page-cache.ts) while no
 * image has changed since it was rendered; else rendered now, and kept. Without a token the page
 * is text, which the catalogue cache keeps; a restricted user's page also depends on their grants,
 * and is rendered every time.
 */
export async function listImagesPage(
  ctx: PublicContext,
  query: ListQuery,
  counters: Promise<ReadonlyMap<string, number>>,
  laterFields: boolean,
): Promise<Buffer | string> {
  const { actor } = ctx
  if (actor == null || actor.user.restricted) return listImagesJson(ctx, query, laterFields)
  const stamp = (await counters).get(IMAGES_COUNTER)
  if (stamp === undefined) return listImagesJson(ctx, query, laterFields)
  const scope = readsPrivateImages(actor) ? actor.accountId : 'public'
  const key = pageKey(scope, query)
  const pages = renderedPagesOf(ctx.db, IMAGES_COUNTER)
  return pages.get(key, stamp) ?? pages.set(key, await listImagesJson(ctx, query, laterFields), { stamp })
}

/** `compute/<slug>` for anyone; `private/<n>` needs a token with `images:read_only` and a grant. */
export async function getImage(ctx: PublicContext, ids: ImageIds): Promise<Image> {
  return toImage(await accessImage(ctx, ids, 'read_only'))
}

/**
 * The image an instance is to be deployed from, as the account sees it (any public image, or one
 * of its private ones with a grant to read it); undefined when there is none. Deploying needs no
 * images scope, and whether the image can be deployed (available, small enough) is the caller's
 * question.
 */
export async function findDeployableImage(ctx: RequestContext, wireId: string): Promise<Image | undefined> {
  const row = await repo.findVisibleImage(ctx.db, ctx.actor.accountId, wireId)
  if (row === undefined) return undefined
  if (row.account_id !== null) await assertEntityGrant(ctx.db, ctx.actor, 'image', row.id, 'read_only')
  return toImage(row)
}

/** A private image as its creator describes it, captured from a disk or uploaded. */
export interface PrivateImageFields {
  label: string
  description: string | null | undefined
  cloudInit: boolean | undefined
  tags: string[] | undefined
  region: string
  status: ImageStatus
  size: number
  /** An upload's URL and window. */
  upload?: Pick<NewImageRow, 'upload_token_hash' | 'upload_state' | 'upload_expiry'>
}

/** Creates a private image of the caller's account; a restricted creator gets `read_write` on it. */
export async function insertPrivateImage(
  ctx: RequestContext,
  image: PrivateImageFields,
  now: string,
): Promise<ImageRow> {
  const { actor } = ctx
  const row = await repo.insertImage(ctx.db, {
    slug: null,
    account_id: actor.accountId,
    label: image.label,
    description: image.description === undefined ? '' : image.description,
    created_by: actor.user.username,
    type: 'manual',
    status: image.status,
    size: image.size,
    capabilities: JSON.stringify(image.cloudInit ? ['cloud-init'] : []),
    tags: imageTags(image.tags ?? []),
    is_public: false,
    deprecated: false,
    vendor: null,
    eol: null,
    expiry: null,
    created: now,
    updated: now,
    creator_user_id: actor.user.id,
    region: image.region,
    ...image.upload,
  })
  await grantToCreator(ctx.db, actor, 'image', row.id)
  return row
}

/** Only `label`, `description` and `tags` change; an `image_update` event records it. */
export async function updateImage(ctx: RequestContext, ids: ImageIds, body: UpdateImageBody): Promise<Image> {
  return inContextTransaction(ctx, async (tx) => {
    const row = await accessImage(tx, ids, 'read_write')
    const changes: repo.ImageChanges = {
      ...(body.label !== undefined && { label: body.label }),
      ...(body.description !== undefined && { description: body.description }),
      ...(body.tags !== undefined && { tags: imageTags(body.tags) }),
    }
    if (Object.keys(changes).length === 0) return toImage(row)
    const now = nowTimestamp(tx.clock)
    const updated = await repo.updateImage(tx.db, row.id, { ...changes, updated: now })
    await recordEvent(
      tx.db,
      buildEvent(tx.actor, 'image_update', { entity: imageEntity(updated), grant: imageGrant(updated) }, now),
    )
    return toImage(updated)
  })
}

/**
 * Deletes a private image and its stored data. The data's removal is also queued in the same
 * transaction, so it happens even if this process stops right after the commit.
 */
export async function deleteImage(ctx: RequestContext, ids: ImageIds, blobs: BlobStore): Promise<void> {
  const id = await inContextTransaction(ctx, async (tx) => {
    const row = await accessImage(tx, ids, 'read_write')
    await removeImage(tx.db, tx.clock, row, tx.actor.user)
    return row.id
  })
  // The queued job would do it too; doing it now means the space is free when the call returns.
  await blobs.delete(imageBlobKey(id)).catch(() => {})
}

/**
 * Deletes the row, its grants and (through a job) its data, with an `image_delete` event by
 * `user` (null: the system).
 */
export async function removeImage(
  db: Db,
  clock: Clock,
  row: ImageRow,
  user: EventSource['user'],
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
  await recordEvent(
    db,
    buildEvent(
      { accountId: row.account_id, user },
      'image_delete',
      // The image and its grants are gone: the event is for the account's unrestricted users and the actor.
      { entity: imageEntity(row), grant: null, message: message ?? null },
      now,
    ),
  )
}
