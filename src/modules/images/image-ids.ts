import type { ImageRow } from './images.table.ts'

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
