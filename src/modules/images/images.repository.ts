import { type RawBuilder, type SqlBool, sql } from 'kysely'
import { type PageRequest, paginate } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import type { CompiledFilter } from '../../common/x-filter.ts'
import type { Db } from '../../db/connect.ts'
import { forUpdate } from '../../db/dialects/dialect.ts'
import type { ImageRow, ImageTable, NewImageRow } from './images.table.ts'

const PRIVATE_ID = /^private\/([1-9][0-9]{0,15})$/
const PUBLIC_ID = /^compute\/[^/]+$/

/** The wire id: `compute/<slug>` for public images, `private/<id>` for an account's own. */
export const wireImageId = (row: Pick<ImageRow, 'id' | 'slug'>): string => row.slug ?? `private/${row.id}`

export type ParsedImageId = { kind: 'public'; slug: string } | { kind: 'private'; id: number }

/** `compute/<slug>` or `private/<n>`; anything else names no image. */
export function parseImageId(wireId: string): ParsedImageId | undefined {
  const priv = PRIVATE_ID.exec(wireId)
  if (priv) {
    const id = Number(priv[1])
    return Number.isSafeInteger(id) ? { kind: 'private', id } : undefined
  }
  return PUBLIC_ID.test(wireId) ? { kind: 'public', slug: wireId } : undefined
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

export async function findAccountImage(db: Db, accountId: number, id: number): Promise<ImageRow | undefined> {
  return db
    .selectFrom('images')
    .selectAll()
    .where('id', '=', id)
    .where('account_id', '=', accountId)
    .executeTakeFirst()
}

/** The account's image, row-locked until the transaction ends (PostgreSQL). */
export async function lockAccountImage(db: Db, accountId: number, id: number): Promise<ImageRow | undefined> {
  return forUpdate(
    db,
    db.selectFrom('images').selectAll().where('id', '=', id).where('account_id', '=', accountId),
  ).executeTakeFirst()
}

export async function lockImage(db: Db, id: number): Promise<ImageRow | undefined> {
  return forUpdate(db, db.selectFrom('images').selectAll().where('id', '=', id)).executeTakeFirst()
}

export interface ImageListScope {
  /** The caller's account when its private images are to be listed too. */
  accountId: number | null
  /** Limits a restricted user's private images to those granted (a SQL condition), or undefined. */
  granted: RawBuilder<SqlBool> | undefined
}

/**
 * Public images, plus the account's private ones: private first (newest id last), then the public
 * catalogue in its order. One count and one page query, whatever the filter.
 */
export async function listImages(
  db: Db,
  scope: ImageListScope,
  page: PageRequest,
  filter: CompiledFilter,
): Promise<PageResult<ImageRow>> {
  let query = db.selectFrom('images').selectAll('images')
  const { accountId, granted } = scope
  query =
    accountId === null
      ? query.where('images.is_public', '=', true)
      : query.where((eb) =>
          eb.or([
            eb('images.is_public', '=', true),
            granted
              ? eb.and([eb('images.account_id', '=', accountId), granted])
              : eb('images.account_id', '=', accountId),
          ]),
        )
  if (filter.where) query = query.where(filter.where)
  return paginate(query, page, [
    ...(filter.order ? [filter.order] : []),
    { expression: sql.ref('images.is_public'), direction: 'asc' },
    { expression: sql.ref('images.position'), direction: 'asc' },
    { expression: sql.ref('images.id'), direction: 'asc' },
  ])
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

export async function findImageByUploadTokenHash(db: Db, hash: string): Promise<ImageRow | undefined> {
  return db.selectFrom('images').selectAll().where('upload_token_hash', '=', hash).executeTakeFirst()
}

/**
 * Moves an upload from `waiting` to `receiving`, atomically, so that only one PUT at a time can
 * stream into an image. False when the upload is no longer waiting or its window has closed.
 */
export async function claimUpload(db: Db, id: number, now: string): Promise<boolean> {
  const result = await db
    .updateTable('images')
    .set({ upload_state: 'receiving' })
    .where('id', '=', id)
    .where('status', '=', 'pending_upload')
    .where('upload_state', '=', 'waiting')
    .where('upload_expiry', '>', now)
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/** A refused upload leaves the URL usable again for the corrected data. */
export async function releaseUpload(db: Db, id: number): Promise<void> {
  await db
    .updateTable('images')
    .set({ upload_state: 'waiting' })
    .where('id', '=', id)
    .where('upload_state', '=', 'receiving')
    .execute()
}
