import type { EventParts } from '../events/event-builder.ts'
import { wireImageId } from './image-ids.ts'
import type { ImageRow } from './images.table.ts'

/** A private image as the entity of its own events (`image_update`, `image_upload`, …). */
export const imageEntity = (row: Pick<ImageRow, 'id' | 'label'>): NonNullable<EventParts['entity']> => ({
  type: 'image',
  id: row.id,
  label: row.label,
  url: `/v4/images/private/${row.id}`,
})

/** An image as the secondary entity of another's event (`disk_imagize`), named by its wire id. */
export const imageSecondaryEntity = (
  row: Pick<ImageRow, 'id' | 'slug' | 'label'>,
): NonNullable<EventParts['secondary']> => ({
  type: 'image',
  id: wireImageId(row),
  label: row.label,
  url: `/v4/images/${wireImageId(row)}`,
})

/** A restricted user sees an image's events while holding a grant on the image. */
export const imageGrant = (row: Pick<ImageRow, 'id'>): NonNullable<EventParts['grant']> => ({
  type: 'image',
  id: row.id,
})
