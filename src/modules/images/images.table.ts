import type { Generated, Insertable, Selectable } from 'kysely'

export type ImageStatus = 'creating' | 'pending_upload' | 'available'

/** Where an upload stands: its URL usable, a PUT streaming through it, or the data received. */
export type UploadState = 'waiting' | 'receiving' | 'received'

export interface ImageTable {
  id: Generated<number>
  /** `compute/<slug>` id of a public image; NULL for private images (`private/<id>`). */
  slug: string | null
  /** Owner of a private image; NULL for public images. */
  account_id: number | null
  label: string
  description: string | null
  created_by: string | null
  type: string
  status: string
  size: number
  /** JSON array of capability names. */
  capabilities: string
  is_public: boolean
  deprecated: boolean
  vendor: string | null
  eol: string | null
  expiry: string | null
  created: string
  updated: string | null
  /** Catalogue order of public images. */
  position: Generated<number>
  creator_user_id: number | null
  region: string | null
  /** SHA-256 (hex) of the upload URL's secret; the secret itself is never stored. */
  upload_token_hash: string | null
  upload_state: UploadState | null
  upload_expiry: string | null
  /** Who holds the `receiving` claim (one random value per claim) and until when. */
  upload_lease_owner: string | null
  upload_lease_expiry: string | null
  blob_key: string | null
  /** Bytes held in the blob store (the gzip data as uploaded). */
  stored_bytes: number | null
  uncompressed_bytes: number | null
  /** SHA-256 (hex) of the uncompressed disk image. */
  checksum: string | null
  /** JSON array of tag names, sorted, each once. */
  tags: string
}

export type ImageRow = Selectable<ImageTable>
export type NewImageRow = Insertable<ImageTable>
