import type { Db } from '../db/connect.ts'
import { syncRowsByKey } from '../db/rows.ts'
import { type CatalogueImage, PUBLIC_IMAGE_CREATOR, PUBLIC_IMAGES } from './images.ts'

/**
 * Makes the public images match the catalogue (by slug; private images are untouched), keeping
 * their ids and drawing none: private images share the table's sequence, and an upsert by slug
 * would push their ids up by the size of the catalogue on every start (`syncRowsByKey`).
 */
export async function syncPublicImages(db: Db, images: CatalogueImage[] = PUBLIC_IMAGES): Promise<void> {
  const rows = images.map((image, position) => ({
    slug: `compute/${image.slug}`,
    account_id: null,
    label: image.label,
    description: image.description,
    created_by: PUBLIC_IMAGE_CREATOR,
    type: 'manual',
    status: 'available',
    size: image.size,
    capabilities: JSON.stringify(image.capabilities),
    tags: '[]',
    is_public: true,
    deprecated: image.deprecated,
    vendor: image.vendor,
    eol: image.eol,
    expiry: null,
    created: image.created,
    updated: image.created,
    position,
  }))
  await syncRowsByKey(db, 'images', rows, 'slug', ['account_id'])
}
