import { type Static, Type } from 'typebox'
import { idParams } from '../../common/id-params.ts'
import { IdSchema, Nullable, Page, TagsSchema, TimestampSchema } from '../../common/schemas.ts'

/** Volume sizes in GB, as the real service bounds them. */
export const VOLUME_SIZE_MIN = 10
export const VOLUME_SIZE_MAX = 16384
export const VOLUME_SIZE_DEFAULT = 20

/** The volume in the key order the real service sends it. */
export const VolumeSchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  status: Type.Union([Type.Literal('creating'), Type.Literal('active'), Type.Literal('resizing')]),
  /** GB. */
  size: Type.Integer(),
  region: Type.String(),
  linode_id: Nullable(Type.Integer()),
  linode_label: Nullable(Type.String()),
  created: TimestampSchema,
  updated: TimestampSchema,
  /** Where the volume appears on an instance it is attached to. */
  filesystem_path: Type.String(),
  tags: Type.Array(Type.String()),
  hardware_type: Type.Union([Type.Literal('hdd'), Type.Literal('nvme')]),
  encryption: Type.Union([Type.Literal('enabled'), Type.Literal('disabled')]),
})
export type Volume = Static<typeof VolumeSchema>

export const VolumePageSchema = Page(VolumeSchema)

/** 1-32 characters: a letter first, then letters, digits, dashes and underscores, never doubled. */
const LabelSchema = Type.String({
  minLength: 1,
  maxLength: 32,
  pattern: '^[a-zA-Z](?:(?!--|__)[a-zA-Z0-9_-])*$',
  'x-reason':
    'Label must begin with a letter and may only contain letters, numbers, dashes and underscores (no two dashes or underscores in a row)',
})

const SizeSchema = Type.Integer({ minimum: VOLUME_SIZE_MIN, maximum: VOLUME_SIZE_MAX })

export const CreateVolumeBodySchema = Type.Object(
  {
    label: LabelSchema,
    /** Where to create it; taken from the instance when `linode_id` is given. */
    region: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    size: Type.Optional(SizeSchema),
    linode_id: Type.Optional(Nullable(IdSchema)),
    config_id: Type.Optional(Nullable(IdSchema)),
    encryption: Type.Optional(Type.Union([Type.Literal('enabled'), Type.Literal('disabled')])),
    tags: Type.Optional(TagsSchema),
  },
  { description: "Give `region`, or `linode_id` to create it in that instance's region and attach it." },
)
export type CreateVolumeBody = Static<typeof CreateVolumeBodySchema>

/** The label and tags can change; the size only through a resize. */
export const UpdateVolumeBodySchema = Type.Object({
  label: Type.Optional(LabelSchema),
  tags: Type.Optional(TagsSchema),
})
export type UpdateVolumeBody = Static<typeof UpdateVolumeBodySchema>

export const AttachVolumeBodySchema = Type.Object({
  linode_id: IdSchema,
  config_id: Type.Optional(Nullable(IdSchema)),
  persist_across_boots: Type.Optional(Type.Boolean()),
})
export type AttachVolumeBody = Static<typeof AttachVolumeBodySchema>

export const ResizeVolumeBodySchema = Type.Object({ size: SizeSchema })
export type ResizeVolumeBody = Static<typeof ResizeVolumeBodySchema>

export const VolumeParams = idParams('volumeId')
