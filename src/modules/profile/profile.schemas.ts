import { type Static, Type } from 'typebox'
import { Nullable } from '../../common/schemas.ts'
import { termKeys } from '../../vocabulary/terms.ts'
import { EmailSchema } from '../users/users.schemas.ts'

/**
 * Key order as the real API returns it (docs/service-facts.md#key-order), with `shell_auth_method`
 * as the API document names it.
 */
export const ProfileSchema = Type.Object(
  {
    uid: Type.Integer(),
    username: Type.String(),
    email: Type.String(),
    verified_phone_number: Nullable(Type.String()),
    timezone: Type.String(),
    email_notifications: Type.Boolean(),
    referrals: Type.Object({
      code: Type.String(),
      url: Type.String(),
      total: Type.Integer(),
      completed: Type.Integer(),
      pending: Type.Integer(),
      credit: Type.Number(),
    }),
    ip_whitelist_enabled: Type.Boolean(),
    shell_auth_method: Type.String({ enum: ['password_keys', 'keys_only', 'disabled'] }),
    authorized_keys: Nullable(Type.Array(Type.String())),
    two_factor_auth: Type.Boolean(),
    restricted: Type.Boolean(),
    authentication_type: Type.String(),
  },
  termKeys('profile'),
)
export type Profile = Static<typeof ProfileSchema>

export const SHELL_AUTH_METHODS = ['password_keys', 'keys_only', 'disabled'] as const

/**
 * The writable fields. `restricted` and `two_factor_auth` are accepted because clients send the
 * profile back whole, but they can only be repeated, not changed, here. Anything else sent
 * (`uid`, `username`, `authentication_type`, …) is ignored.
 */
export const UpdateProfileBodySchema = Type.Object(
  {
    email: Type.Optional(EmailSchema),
    timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    email_notifications: Type.Optional(Type.Boolean()),
    authorized_keys: Type.Optional(
      Nullable(Type.Array(Type.String({ maxLength: 16384 }), { maxItems: 100 })),
    ),
    shell_auth_method: Type.Optional(Type.String({ enum: [...SHELL_AUTH_METHODS] })),
    ip_whitelist_enabled: Type.Optional(
      Type.Boolean({ description: 'deprecated: only `false` is taken (IP whitelisting cannot be enabled)' }),
    ),
    restricted: Type.Optional(
      Type.Boolean({
        description: "only the current value is taken: a user's restriction is changed under /account/users",
      }),
    ),
    two_factor_auth: Type.Optional(
      Type.Boolean({
        description:
          'only the current value is taken: two-factor is turned on and off with /profile/tfa-enable and /profile/tfa-disable',
      }),
    ),
  },
  termKeys('profile'),
)
export type UpdateProfileBody = Static<typeof UpdateProfileBodySchema>
