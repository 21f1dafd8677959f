import { type Static, Type } from 'typebox'
import { IdParamSchema, IdSchema, Nullable, Page, TimestampSchema } from '../../common/schemas.ts'

/** Key order as recorded from the real API (linodego TestImage_CreateUpload, 4.174.0 fields only). */
export const ImageSchema = Type.Object({
  id: Type.String({ examples: ['compute/debian12', 'private/12'] }),
  label: Type.String(),
  description: Nullable(Type.String()),
  created: TimestampSchema,
  updated: Nullable(TimestampSchema),
  size: Type.Integer({ description: 'minimum disk size to deploy it, in MB' }),
  created_by: Nullable(Type.String()),
  type: Type.String({ enum: ['manual', 'automatic'] }),
  is_public: Type.Boolean(),
  deprecated: Type.Boolean(),
  vendor: Nullable(Type.String()),
  expiry: Nullable(TimestampSchema),
  eol: Nullable(TimestampSchema),
  status: Type.String({ enum: ['creating', 'pending_upload', 'available'] }),
  capabilities: Type.Array(Type.String()),
})
export type Image = Static<typeof ImageSchema>

export const ImagePageSchema = Page(ImageSchema)

/** Decisions, 16. */
const LabelSchema = Type.String({ minLength: 1, maxLength: 50 })
const DescriptionSchema = Type.String({ minLength: 1, maxLength: 65000 })

export const CaptureImageBodySchema = Type.Object({
  disk_id: IdSchema,
  label: Type.Optional(LabelSchema),
  description: Type.Optional(Nullable(DescriptionSchema)),
  cloud_init: Type.Optional(Type.Boolean()),
})
export type CaptureImageBody = Static<typeof CaptureImageBodySchema>

export const UploadImageBodySchema = Type.Object({
  label: LabelSchema,
  region: Type.String({ minLength: 1, maxLength: 64 }),
  description: Type.Optional(Nullable(DescriptionSchema)),
  cloud_init: Type.Optional(Type.Boolean()),
})
export type UploadImageBody = Static<typeof UploadImageBodySchema>

/** Recorded order: `upload_to` before `image`. */
export const UploadImageResponseSchema = Type.Object({
  upload_to: Type.String({ description: 'PUT the gzip-compressed raw disk image here; no token needed' }),
  image: ImageSchema,
})

export const UpdateImageBodySchema = Type.Object({
  label: Type.Optional(LabelSchema),
  description: Type.Optional(Nullable(DescriptionSchema)),
})
export type UpdateImageBody = Static<typeof UpdateImageBodySchema>

/** `/images/compute%2Fdebian12`, `/images/private%2F12`: the id arrives decoded in one segment. */
export const ImageIdParamsSchema = Type.Object({ imageId: Type.String({ maxLength: 200 }) })
/** `/images/compute/debian12` */
export const PublicImageParamsSchema = Type.Object({ slug: Type.String({ maxLength: 190 }) })
/** `/images/private/12` */
export const PrivateImageParamsSchema = Type.Object({ id: IdParamSchema })

export const UploadParamsSchema = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) })
