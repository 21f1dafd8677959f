import { type Static, Type } from 'typebox'
import { Nullable, Page, TimestampSchema } from '../../common/schemas.ts'
import { termKeys } from '../../vocabulary/terms.ts'

export const UsernameSchema = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^(?!.*[-_]{2})[A-Za-z0-9][A-Za-z0-9_-]*[A-Za-z0-9]$',
  'x-reason':
    'Username must only use ASCII letters, numbers, dashes and underscores, begin and end with a letter or number, and not repeat dashes or underscores',
})

export const EmailSchema = Type.String({ format: 'email', maxLength: 128 })

export const UserSchema = Type.Object(
  {
    username: Type.String(),
    email: Type.String(),
    restricted: Type.Boolean(),
    ssh_keys: Type.Array(Type.String(), { description: 'labels of the SSH keys on the user profile' }),
    tfa_enabled: Type.Boolean(),
    verified_phone_number: Nullable(Type.String()),
    password_created: Nullable(TimestampSchema),
    last_login: Nullable(Type.Object({ login_datetime: TimestampSchema, status: Type.String() })),
  },
  termKeys('user'),
)
export type User = Static<typeof UserSchema>

export const UserPageSchema = Page(UserSchema)

export const CreateUserBodySchema = Type.Object({
  username: UsernameSchema,
  email: EmailSchema,
  restricted: Type.Boolean(),
})

export const UpdateUserBodySchema = Type.Object({
  username: Type.Optional(UsernameSchema),
  email: Type.Optional(EmailSchema),
  restricted: Type.Optional(Type.Boolean()),
})

export const UsernameParamsSchema = Type.Object({ username: Type.String({ maxLength: 64 }) })
