import { type Static, Type } from 'typebox'
import { idParams } from '../../../common/id-params.ts'
import { Page, TimestampSchema } from '../../../common/schemas.ts'

/** Key order as recorded from the real API. */
export const SshKeySchema = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  ssh_key: Type.String(),
  created: TimestampSchema,
})
export type SshKey = Static<typeof SshKeySchema>

export const SshKeyPageSchema = Page(SshKeySchema)

/** The document allows an empty label (0..64); the key itself is checked by ssh-key-parser.ts. */
const SshKeyLabelSchema = Type.String({ maxLength: 64 })

export const CreateSshKeyBodySchema = Type.Object({
  label: Type.Optional(SshKeyLabelSchema),
  ssh_key: Type.String({ maxLength: 16384 }),
})

export const UpdateSshKeyBodySchema = Type.Object({
  label: Type.Optional(SshKeyLabelSchema),
})

export const SshKeyParams = idParams('sshKeyId')
