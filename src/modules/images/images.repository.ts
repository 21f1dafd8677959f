import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import { filterFields } from '../../common/filter-columns.ts'
import { type OrderTerm, orderSql, type PageRequest, paginate } from '../../common/pagination.ts'
import { joinedJsonPage } from '../../common/rendered-json.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { Db } from '../../db/connect.ts'
import type { Database } from '../../db/database.ts'
import { listCriteria } from '../../db/list-criteria.ts'
import { defineShaped, stableSlot } from '../../db/prepared.ts'
import { countRows, deleteRows, findRow, insertRow, type RowLock, updateRow } from '../../db/rows.ts'
import { grantedEntities } from '../grants/grant-filter.ts'
import { parseImageId } from './image-ids.ts'
import { imageJson } from './image-json.ts'
import type { ImageRow, ImageTable, NewImageRow } from './images.table.ts'

/** Filterable fields (docs/service-facts.md#filterable-fields); `status` filters but cannot order. */
export const IMAGE_FILTERS = filterFields(
  { string: ['label', 'type', 'vendor', 'status'], boolean: ['deprecated', 'is_public'], integer: ['size'] },
  { column: (field) => `images.${field}`, nullable: ['vendor'], unordered: ['status'] },
)

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

export const findPublicImage = (db: Db, slug: string) => findRow(db, 'images', { slug })

/**
 * One of the account's private images; `lock` holds its row until the transaction ends
 * (PostgreSQL), for a change.
 */
export const findAccountImage = (db: Db, accountId: number, id: number, options?: RowLock) =>
  findRow(db, 'images', { id, account_id: accountId }, options)

export const lockImage = (db: Db, id: number) => findRow(db, 'images', { id }, { lock: true })

export interface ImageListScope {
  /** The caller's account when its private images are to be listed too. */
  accountId: number | null
  /** A restricted user, who sees only the private images granted to them; null: all of them. */
  restrictedUserId: number | null
}

/** The list's own order, after the filter's: private images first, then the public catalogue. */
const IMAGE_ORDER: OrderTerm[] = [
  { expression: sql.ref('images.is_public'), direction: 'asc' },
  { expression: sql.ref('images.position'), direction: 'asc' },
]

/**
 * The image list's statements, one set per shape: the X-Filter as sent and whose images it
 * shows. Public images, plus the account's private ones: private first (newest id last), then the
 * public catalogue in its order. The account and the restricted user are slots, so one statement
 * serves every account.
 */
export const imageListStatements = defineShaped(
  'image list json',
  (
    db,
    shape: { filter: string | null; scope: 'public' | 'account' | 'restricted'; laterFields: boolean },
    dialect,
  ) => {
    const { where, order } = listCriteria({
      filter: shape.filter ?? undefined,
      spec: IMAGE_FILTERS,
      dialect,
      order: { after: IMAGE_ORDER, unique: 'images.id', uniqueFollowsFilter: false },
    })
    const account = stableSlot<number>(dialect, 'account')
    const filtered = (query: SelectQueryBuilder<Database, 'images', object>) =>
      where ? query.where(where) : query
    const publicImages = filtered((db as Db).selectFrom('images').where('images.is_public', '=', true))
    let privateImages = filtered(
      (db as Db)
        .selectFrom('images')
        .where('images.account_id', '=', account)
        .where('images.is_public', '=', false),
    )
    if (shape.scope === 'restricted') {
      privateImages = privateImages.where(
        grantedEntities('image', 'images.id', stableSlot<number>(dialect, 'user')),
      )
    }
    const inScope =
      shape.scope === 'public'
        ? publicImages
        : filtered(
            (db as Db)
              .selectFrom('images')
              .where((eb) =>
                eb.or([
                  eb('images.is_public', '=', true),
                  eb.and([
                    eb('images.account_id', '=', account),
                    ...(shape.scope === 'restricted'
                      ? [grantedEntities('image', 'images.id', stableSlot<number>(dialect, 'user'))]
                      : []),
                  ]),
                ]),
              ),
          )
    // Counted as two runs, each from its own index, like the page's ids below: a count over the
    // OR of both read every row of both indexes through a sort of their row ids, several times
    // slower (an account of 1,000 images: about 100 µs against 27).
    const counted = (query: SelectQueryBuilder<Database, 'images', object>) =>
      query.select(sql<number>`count(*)`.as('n'))
    const count =
      shape.scope === 'public'
        ? counted(publicImages)
        : (db as Db).selectNoFrom(
            sql<number>`(${counted(privateImages)}) + (${counted(publicImages)})`.as('n'),
          )
    const limit = stableSlot<number>(dialect, 'limit')
    const offset = stableSlot<number>(dialect, 'offset')
    // The page's ids are found first and only their rows rendered: a sort computes every selected
    // column of every row it sorts, not just the page's. In the default order the private and the
    // public images are two runs, each read in index order, where one query over both (an OR of
    // two indexes) sorts them all.
    const columns = ['images.id', 'images.is_public', 'images.position'] as const
    const ids =
      order.length > IMAGE_ORDER.length + 1
        ? order
            .reduce((q, term) => q.orderBy(orderSql(term)), inScope.select('images.id'))
            .limit(limit)
            .offset(offset)
        : (shape.scope === 'public'
            ? publicImages.select(columns)
            : privateImages.select(columns).unionAll(publicImages.select(columns))
          )
            .orderBy('is_public')
            .orderBy('position')
            .orderBy('id')
            .limit(limit)
            .offset(offset)
    const page = order.reduce(
      (q, term) => q.orderBy(orderSql(term)),
      (db as Db)
        .selectFrom('images')
        .innerJoin(ids.as('page_ids'), 'page_ids.id', 'images.id')
        .select([imageJson(dialect, shape.laterFields).as('json'), sql<number>`(${count})`.as('n')]),
    )
    return { count: count.compile(), page: joinedJsonPage(page.compile(), dialect) }
  },
)

/**
 * A page of the images in scope as wire JSON, the items joined by commas; with `laterFields`, the
 * fields of later versions too (see image-json.ts).
 */
export async function listImageJson(
  db: Db,
  scope: ImageListScope,
  page: PageRequest,
  filter: string | undefined,
  laterFields: boolean,
): Promise<PageResult<string>> {
  const { accountId, restrictedUserId } = scope
  const list = imageListStatements(db, {
    filter: filter ?? null,
    scope: accountId === null ? 'public' : restrictedUserId === null ? 'account' : 'restricted',
    laterFields,
  })
  const rows = await paginate(db, list, { account: accountId, user: restrictedUserId }, page)
  return { ...rows, data: rows.data.map((r) => r.json) }
}

export const insertImage = (db: Db, row: NewImageRow) => insertRow(db, 'images', row)

export type ImageChanges = Partial<Omit<ImageTable, 'id' | 'position'>>

export const updateImage = (db: Db, id: number, changes: ImageChanges) =>
  updateRow(db, 'images', { id }, changes)

export const deleteImage = (db: Db, id: number) => deleteRows(db, 'images', { id })

/** Images of the account still waiting for their data. */
export const countPendingUploads = (db: Db, accountId: number) =>
  countRows(db, 'images', { account_id: accountId, status: 'pending_upload' })

export const findImageByUploadTokenHash = (db: Db, hash: string) =>
  findRow(db, 'images', { upload_token_hash: hash })

/** A claim on an upload URL: who streams into it, until when unless renewed. */
export interface UploadLease {
  owner: string
  expiry: string
}

type ImageCondition = (eb: ExpressionBuilder<Database, 'images'>) => Expression<SqlBool>

/** Sets `changes` on the image if `condition` holds of it, in one statement; whether it did. */
async function changeUploadIf(
  db: Db,
  id: number,
  changes: ImageChanges,
  condition: ImageCondition,
): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set(changes)
    .where('id', '=', id)
    .where(condition)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** Streaming under a lease that has lapsed (its process died) or was never set. */
const lapsedAt =
  (now: string): ImageCondition =>
  (eb) =>
    eb.and([
      eb('upload_state', '=', 'receiving'),
      eb.or([eb('upload_lease_expiry', 'is', null), eb('upload_lease_expiry', '<=', now)]),
    ])

/** Streaming under the owner's lease. */
const heldBy =
  (owner: string): ImageCondition =>
  (eb) =>
    eb.and([eb('upload_state', '=', 'receiving'), eb('upload_lease_owner', '=', owner)])

const released = { upload_state: 'waiting', upload_lease_owner: null, upload_lease_expiry: null } as const

/**
 * Moves an upload to `receiving` under a new lease, atomically, so that only one PUT at a time can
 * stream into an image: from `waiting`, or from a `receiving` whose lease lapsed (its process
 * died). False when the upload is taken, spent, or its window has closed.
 */
export const claimUpload = (db: Db, id: number, lease: UploadLease, now: string) =>
  changeUploadIf(
    db,
    id,
    { upload_state: 'receiving', upload_lease_owner: lease.owner, upload_lease_expiry: lease.expiry },
    (eb) =>
      eb.and([
        eb('status', '=', 'pending_upload'),
        eb('upload_expiry', '>', now),
        eb.or([eb('upload_state', '=', 'waiting'), lapsedAt(now)(eb)]),
      ]),
  )

/** Extends a lease its owner still holds; false when it was lost. */
export const renewUploadLease = (db: Db, id: number, lease: UploadLease) =>
  changeUploadIf(db, id, { upload_lease_expiry: lease.expiry }, heldBy(lease.owner))

/**
 * A refused upload leaves the URL usable again for the corrected data; false when the lease had
 * been lost (the upload is someone else's now).
 */
export const releaseUpload = (db: Db, id: number, owner: string) =>
  changeUploadIf(db, id, released, heldBy(owner))

/** An upload whose process died mid-stream (its lease lapsed) takes data again; false if not so. */
export const releaseLapsedUpload = (db: Db, id: number, now: string) =>
  changeUploadIf(db, id, released, lapsedAt(now))
