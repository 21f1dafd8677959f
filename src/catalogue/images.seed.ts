import type { Db } from '../db/connect.ts'
import { type CatalogueImage, PUBLIC_IMAGE_CREATOR, PUBLIC_IMAGES } from './images.ts'

/**
 * Makes the public images match the catalogue (by slug; private images are untouched). Existing
 * rows are updated and only missing ones inserted: an INSERT … ON CONFLICT draws an id from the
 * table's sequence even when it ends up updating, and private images share that sequence, so
 * every start would otherwise push their ids up by the size of the catalogue.
 */
export async function syncPublicImages(db: Db, images: CatalogueImage[] = PUBLIC_IMAGES): Promise<void> {
  const slugs = images.map((image) => `compute/${image.slug}`)
  const existing =
    slugs.length === 0
      ? new Set<string>()
      : new Set(
          (await db.selectFrom('images').select('slug').where('slug', 'in', slugs).execute()).map(
            (r) => r.slug,
          ),
        )
  for (const [position, image] of images.entries()) {
    const slug = `compute/${image.slug}`
    const values = {
      label: image.label,
      description: image.description,
      created_by: PUBLIC_IMAGE_CREATOR,
      type: 'manual',
      status: 'available',
      size: image.size,
      capabilities: JSON.stringify(image.capabilities),
      is_public: true,
      deprecated: image.deprecated,
      vendor: image.vendor,
      eol: image.eol,
      expiry: null,
      created: image.created,
      updated: image.created,
      position,
    }
    if (existing.has(slug)) await db.updateTable('images').set(values).where('slug', '=', slug).execute()
    else
      await db
        .insertInto('images')
        .values({ slug, account_id: null, ...values })
        .execute()
  }
}
