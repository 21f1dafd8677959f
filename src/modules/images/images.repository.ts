import { sql } from 'kysely'
import { type PageRequest, paginateQuery } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { FilterSpec } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { dialectOf, forUpdate } from '../../db/dialects/dialect.ts'
import { listCriteria } from '../../db/list-criteria.ts'
import { grantedEntities } from '../grants/grant-filter.ts'
import { parseImageId } from './image-ids.ts'
import type { ImageRow, ImageTable, NewImageRow } from './images.table.ts'

/** Filterable fields (docs/service-facts.md#filterable-fields); `status` filters but cannot order. */
export const IMAGE_FILTERS: FilterSpec = {
  label: { column: 'images.label', type: 'string' },
  deprecated: { column: 'images.deprecated', type: 'boolean' },
  is_public: { column: 'images.is_public', type: 'boolean' },
  size: { column: 'images.size', type: 'integer' },
  type: { column: 'images.type', type: 'string' },
  vendor: { column: 'images.vendor', type: 'string', nullable: true },
  status: { column: 'images.status', type: 'string', orderable: false },
}

/**
 * An image by its wire id as the account sees it: any public image, or one of the account's
 * private images. Another account's private image is not found.
 */
export async function findVisibleImage(
  db: Db,
  accountId: number | null,
  wireId: string,
): Promise<ImageRow | undefined> {
  const parsed = parseImageId(wireId)
  if (parsed === undefined) return undefined
  if (parsed.kind === 'public') return findPublicImage(db, parsed.slug)
  return accountId === null ? undefined : findAccountImage(db, accountId, parsed.id)
}

export async function findPublicImage(db: Db, slug: string): Promise<ImageRow | undefined> {
  return db.selectFrom('images').selectAll().where('slug', '=', slug).executeTakeFirst()
}

/**
 * One of the account's private images; `lock` holds its row until the transaction ends
 * (PostgreSQL), for a change.
 */
export async function findAccountImage(
  db: Db,
  accountId: number,
  id: number,
  options: { lock?: boolean } = {},
): Promise<ImageRow | undefined> {
  const query = db.selectFrom('images').selectAll().where('id', '=', id).where('account_id', '=', accountId)
  return (options.lock ? forUpdate(db, query) : query).executeTakeFirst()
}

export async function lockImage(db: Db, id: number): Promise<ImageRow | undefined> {
  return forUpdate(db, db.selectFrom('images').selectAll().where('id', '=', id)).executeTakeFirst()
}

export interface ImageListScope {
  /** The caller's account when its private images are to be listed too. */
  accountId: number | null
  /** A restricted user, who sees only the private images granted to them; null: all of them. */
  restrictedUserId: number | null
}

/**
 * Public images, plus the account's private ones: private first (newest id last), then the public
 * catalogue in its order. One count and one page query, whatever the filter.
 */
export async function listImages(
  db: Db,
  scope: ImageListScope,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<ImageRow>> {
  const criteria = listCriteria({
    filter,
    spec: IMAGE_FILTERS,
    dialect: dialectOf(db),
    order: {
      after: [
        { expression: sql.ref('images.is_public'), direction: 'asc' },
        { expression: sql.ref('images.position'), direction: 'asc' },
      ],
      unique: 'images.id',
      uniqueFollowsFilter: false,
    },
  })
  const { accountId, restrictedUserId } = scope
  let query = db.selectFrom('images').selectAll('images')
  query =
    accountId === null
      ? query.where('images.is_public', '=', true)
      : query.where((eb) =>
          eb.or([
            eb('images.is_public', '=', true),
            restrictedUserId === null
              ? eb('images.account_id', '=', accountId)
              : eb.and([
                  eb('images.account_id', '=', accountId),
                  grantedEntities('image', 'images.id', restrictedUserId),
                ]),
          ]),
        )
  if (criteria.where) query = query.where(criteria.where)
  return paginateQuery(db, query, criteria.order, page)
}

export async function insertImage(db: Db, row: NewImageRow): Promise<ImageRow> {
  return db.insertInto('images').values(row).returningAll().executeTakeFirstOrThrow()
}

export type ImageChanges = Partial<Omit<ImageTable, 'id' | 'position'>>

export async function updateImage(db: Db, id: number, changes: ImageChanges): Promise<ImageRow> {
  return db.updateTable('images').set(changes).where('id', '=', id).returningAll().executeTakeFirstOrThrow()
}

export async function deleteImage(db: Db, id: number): Promise<void> {
  await db.deleteFrom('images').where('id', '=', id).execute()
}

/** Images of the account still waiting for their data. */
export async function countPendingUploads(db: Db, accountId: number): Promise<number> {
  const row = await db
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('account_id', '=', accountId)
    .where('status', '=', 'pending_upload')
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function findImageByUploadTokenHash(db: Db, hash: string): Promise<ImageRow | undefined> {
  return db.selectFrom('images').selectAll().where('upload_token_hash', '=', hash).executeTakeFirst()
}

/** A claim on an upload URL: who streams into it, until when unless renewed. */
export interface UploadLease {
  owner: string
  expiry: string
}

/**
 * Moves an upload to `receiving` under a new lease, atomically, so that only one PUT at a time can
 * stream into an image: from `waiting`, or from a `receiving` whose lease lapsed (its process
 * died). False when the upload is taken, spent, or its window has closed.
 */
export async function claimUpload(db: Db, id: number, lease: UploadLease, now: string): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set({ upload_state: 'receiving', upload_lease_owner: lease.owner, upload_lease_expiry: lease.expiry })
    .where('id', '=', id)
    .where('status', '=', 'pending_upload')
    .where('upload_expiry', '>', now)
    .where((eb) =>
      eb.or([
        eb('upload_state', '=', 'waiting'),
        eb.and([
          eb('upload_state', '=', 'receiving'),
          eb.or([eb('upload_lease_expiry', 'is', null), eb('upload_lease_expiry', '<=', now)]),
        ]),
      ]),
    )
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Extends a lease its owner still holds; false when it was lost. */
export async function renewUploadLease(db: Db, id: number, lease: UploadLease): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set({ upload_lease_expiry: lease.expiry })
    .where('id', '=', id)
    .where('upload_state', '=', 'receiving')
    .where('upload_lease_owner', '=', lease.owner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * A refused upload leaves the URL usable again for the corrected data; false when the lease had
 * been lost (the upload is someone else's now).
 */
export async function releaseUpload(db: Db, id: number, owner: string): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set({ upload_state: 'waiting', upload_lease_owner: null, upload_lease_expiry: null })
    .where('id', '=', id)
    .where('upload_state', '=', 'receiving')
    .where('upload_lease_owner', '=', owner)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** An upload whose process died mid-stream (its lease lapsed) takes data again; false if not so. */
export async function releaseLapsedUpload(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set({ upload_state: 'waiting', upload_lease_owner: null, upload_lease_expiry: null })
    .where('id', '=', id)
    .where('upload_state', '=', 'receiving')
    .where((eb) => eb.or([eb('upload_lease_expiry', 'is', null), eb('upload_lease_expiry', '<=', now)]))
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
