import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Page, TimestampSchema } from '../../../common/schemas.ts'
import { term } from '../../../vocabulary/terms.ts'

export const UserDefinedFieldSchema = Type.Object({
  label: Type.String(),
  name: Type.String(),
  example: Type.Optional(Type.String()),
  oneof: Type.Optional(Type.String()),
  manyof: Type.Optional(Type.String()),
  default: Type.Optional(Type.String()),
})

/** An image id a script can be deployed with, or `any/all` for every image. */
const ScriptImageSchema = Type.String({ minLength: 1, maxLength: 64, ...term('imageId') })

/** The script in the key order the real API returns it (recorded). */
export const ScriptSchema = Type.Object({
  id: Type.Integer(),
  username: Type.String(),
  user_gravatar_id: Type.String(),
  label: Type.String(),
  description: Type.String(),
  ordinal: Type.Integer(),
  logo_url: Type.String(),
  images: Type.Array(ScriptImageSchema),
  deployments_total: Type.Integer(),
  deployments_active: Type.Integer(),
  is_public: Type.Boolean(),
  mine: Type.Boolean(),
  created: TimestampSchema,
  updated: TimestampSchema,
  rev_note: Type.String(),
  script: Type.String(),
  user_defined_fields: Type.Array(UserDefinedFieldSchema),
})
export type Script = Static<typeof ScriptSchema>

export const ScriptPageSchema = Page(ScriptSchema)

const LabelSchema = Type.String({ minLength: 3, maxLength: 128 })
const ScriptTextSchema = Type.String({ minLength: 1, maxLength: 1_048_576 })
const ImagesSchema = Type.Array(ScriptImageSchema, { minItems: 1, maxItems: 100 })

export const CreateScriptBodySchema = Type.Object({
  label: LabelSchema,
  script: ScriptTextSchema,
  images: ImagesSchema,
  description: Type.Optional(Type.String({ maxLength: 65_000 })),
  is_public: Type.Optional(Type.Boolean()),
  rev_note: Type.Optional(Type.String({ maxLength: 65_000 })),
})
export type CreateScriptBody = Static<typeof CreateScriptBodySchema>

export const UpdateScriptBodySchema = Type.Partial(CreateScriptBodySchema)
export type UpdateScriptBody = Static<typeof UpdateScriptBodySchema>

export const ScriptParams = idParams('scriptId')
