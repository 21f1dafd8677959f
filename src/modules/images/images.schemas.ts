import { type Static, Type } from 'typebox'
import { IdParamSchema, IdSchema, Nullable, TagsSchema, TimestampSchema } from '../../common/schemas.ts'
import { laterKeys, term } from '../../vocabulary/terms.ts'

const ImageFields = {
  id: Type.String({ examples: ['compute/debian12', 'private/12'], ...term('imageId') }),
  label: Type.String(),
  description: Nullable(Type.String()),
  created: TimestampSchema,
  updated: Nullable(TimestampSchema),
  size: Type.Integer({ description: 'minimum disk size to deploy it, in MB' }),
  created_by: Nullable(Type.String(term('creator'))),
  type: Type.String({ enum: ['manual', 'automatic'] }),
  is_public: Type.Boolean(),
  deprecated: Type.Boolean(),
  vendor: Nullable(Type.String()),
  expiry: Nullable(TimestampSchema),
  eol: Nullable(TimestampSchema),
  status: Type.String({ enum: ['creating', 'pending_upload', 'available'] }),
  capabilities: Type.Array(Type.String()),
}

/**
 * Fields of later versions, sent under the real service's naming only (docs/decisions.md, "Fields
 * of later versions"): an image is stored in one region here, the one it was captured or uploaded in.
 */
const LATER_FIELDS = ['tags', 'total_size', 'regions']
const LaterImageFields = {
  tags: Type.Array(Type.String(), { description: 'sorted, each once' }),
  total_size: Type.Integer({ description: 'storage the image takes in all its regions, in MB' }),
  regions: Type.Array(
    Type.Object({
      region: Type.String(),
      status: Type.String({ enum: ['available', 'creating', 'pending'] }),
    }),
  ),
}

/**
 * A private image: key order as recorded (linodego TestImage_CreateUpload, whose recordings of
 * 2024-06 put `tags` after `type`); `total_size` and `regions`, which came after, last.
 */
const PrivateImageSchema = Type.Object(
  {
    id: ImageFields.id,
    label: ImageFields.label,
    description: ImageFields.description,
    created: ImageFields.created,
    updated: ImageFields.updated,
    size: ImageFields.size,
    created_by: ImageFields.created_by,
    type: ImageFields.type,
    tags: LaterImageFields.tags,
    is_public: Type.Boolean({ const: false }),
    deprecated: ImageFields.deprecated,
    vendor: ImageFields.vendor,
    expiry: ImageFields.expiry,
    eol: ImageFields.eol,
    status: ImageFields.status,
    capabilities: ImageFields.capabilities,
    total_size: LaterImageFields.total_size,
    regions: LaterImageFields.regions,
  },
  { title: 'Private image', ...laterKeys(...LATER_FIELDS) },
)

/**
 * A public image: the real service sends its keys in another order (linodego
 * ExampleListImages_all: `id, label, deprecated, size, created, updated, description, created_by, …`);
 * no recording of a public image shows the later fields, which come last.
 */
const PublicImageSchema = Type.Object(
  {
    id: ImageFields.id,
    label: ImageFields.label,
    deprecated: ImageFields.deprecated,
    size: ImageFields.size,
    created: ImageFields.created,
    updated: ImageFields.updated,
    description: ImageFields.description,
    created_by: ImageFields.created_by,
    type: ImageFields.type,
    is_public: Type.Boolean({ const: true }),
    vendor: ImageFields.vendor,
    expiry: ImageFields.expiry,
    eol: ImageFields.eol,
    status: ImageFields.status,
    capabilities: ImageFields.capabilities,
    ...LaterImageFields,
  },
  { title: 'Public image', ...laterKeys(...LATER_FIELDS) },
)

const ImageObjectSchema = Type.Object({ ...ImageFields, ...LaterImageFields })
export type Image = Static<typeof ImageObjectSchema>

/** Public or private, each in its own recorded key order (the serializer picks by `is_public`). */
export const ImageSchema = Type.Unsafe<Image>(Type.Union([PublicImageSchema, PrivateImageSchema]))

/** The list envelope in the recorded order: `pages, data, results, page` (ExampleListImages_all). */
export const ImagePageSchema = Type.Object({
  pages: Type.Integer(),
  data: Type.Array(ImageSchema),
  results: Type.Integer(),
  page: Type.Integer(),
})

/** Image labels (docs/decisions.md#image-labels). */
const LabelSchema = Type.String({ minLength: 1, maxLength: 50 })
const DescriptionSchema = Type.String({ minLength: 1, maxLength: 65000 })

export const CaptureImageBodySchema = Type.Object(
  {
    disk_id: IdSchema,
    label: Type.Optional(LabelSchema),
    description: Type.Optional(Nullable(DescriptionSchema)),
    cloud_init: Type.Optional(Type.Boolean()),
    tags: Type.Optional(TagsSchema),
  },
  laterKeys('tags'),
)
export type CaptureImageBody = Static<typeof CaptureImageBodySchema>

export const UploadImageBodySchema = Type.Object(
  {
    label: LabelSchema,
    region: Type.String({ minLength: 1, maxLength: 64 }),
    description: Type.Optional(Nullable(DescriptionSchema)),
    cloud_init: Type.Optional(Type.Boolean()),
    tags: Type.Optional(TagsSchema),
  },
  laterKeys('tags'),
)
export type UploadImageBody = Static<typeof UploadImageBodySchema>

/** Recorded order: `upload_to` before `image`. */
export const UploadImageResponseSchema = Type.Object({
  upload_to: Type.String({ description: 'PUT the gzip-compressed raw disk image here; no token needed' }),
  image: ImageSchema,
})

export const UpdateImageBodySchema = Type.Object(
  {
    label: Type.Optional(LabelSchema),
    description: Type.Optional(Nullable(DescriptionSchema)),
    tags: Type.Optional(TagsSchema),
  },
  laterKeys('tags'),
)
export type UpdateImageBody = Static<typeof UpdateImageBodySchema>

/** `/images/compute%2Fdebian12`, `/images/private%2F12`: the id arrives decoded in one segment. */
export const ImageIdParamsSchema = Type.Object({
  imageId: Type.String({ maxLength: 200, ...term('imageId') }),
})
/** `/images/compute/debian12` */
export const PublicImageParamsSchema = Type.Object({ slug: Type.String({ maxLength: 190 }) })
/** `/images/private/12` */
export const PrivateImageParamsSchema = Type.Object({ id: IdParamSchema })

export const UploadParamsSchema = Type.Object({ token: Type.String({ pattern: '^[A-Za-z0-9_-]{43}$' }) })
