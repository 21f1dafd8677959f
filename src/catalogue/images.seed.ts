import type { Db } from '../db/connect.ts'
import { type CatalogueImage, PUBLIC_IMAGE_CREATOR, PUBLIC_IMAGES } from './images.ts'

/** Makes the public images match the catalogue (upsert by slug; private images are untouched). */
export async function syncPublicImages(db: Db, images: CatalogueImage[] = PUBLIC_IMAGES): Promise<void> {
  for (const [position, image] of images.entries()) {
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
    await db
      .insertInto('images')
      .values({ slug: `compute/${image.slug}`, account_id: null, ...values })
      .onConflict((oc) => oc.column('slug').doUpdateSet(values))
      .execute()
  }
}
