import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { ErrorCollector } from '../../common/errors.ts'
import { nowTimestamp } from '../../common/time.ts'
import { recordEvent } from '../events/events.service.ts'
import { updateUserSettings } from '../users/users.service.ts'
import type { UserRow, UserRowUpdate } from '../users/users.table.ts'
import type { Profile, UpdateProfileBody } from './profile.schemas.ts'
import { profileEntity, profileEvent } from './profile-events.ts'
import { publicKeyProblem } from './ssh-keys/ssh-key-parser.ts'
import { isTimeZone } from './timezones.ts'

export const REFERRAL_BASE_URL = 'https://www.example.com/?r='

/** The acting user's profile; authentication already loaded the row, so this costs no query. */
export function toProfile(user: UserRow): Profile {
  return {
    uid: user.id,
    username: user.username,
    email: user.email,
    verified_phone_number: user.verified_phone_number,
    timezone: user.timezone,
    email_notifications: user.email_notifications,
    referrals: {
      code: user.referral_code,
      url: `${REFERRAL_BASE_URL}${user.referral_code}`,
      total: 0,
      completed: 0,
      pending: 0,
      credit: 0,
    },
    ip_whitelist_enabled: user.ip_whitelist_enabled,
    shell_auth_method: user.shell_auth_method as Profile['shell_auth_method'],
    authorized_keys: user.authorized_keys === null ? null : (JSON.parse(user.authorized_keys) as string[]),
    two_factor_auth: user.two_factor_auth,
    restricted: user.restricted,
    authentication_type: user.authentication_type,
  }
}

/**
 * PUT /profile: the writable settings. `ip_whitelist_enabled` can be turned off but never on
 * (deprecated); `restricted` and `two_factor_auth` are managed elsewhere, so sending them back
 * unchanged is fine and changing them is refused; an empty `authorized_keys` list is stored as null,
 * as the real API answers.
 */
export async function updateProfile(ctx: RequestContext, body: UpdateProfileBody): Promise<Profile> {
  const user = ctx.actor.user
  const errors = new ErrorCollector()
  if (body.timezone !== undefined && !isTimeZone(body.timezone)) {
    errors.add('timezone must be an IANA time zone such as America/New_York', 'timezone')
  }
  body.authorized_keys?.forEach((key, i) => {
    const problem = publicKeyProblem(key)
    if (problem !== undefined) errors.add(problem, `authorized_keys[${i}]`)
  })
  if (body.ip_whitelist_enabled === true && !user.ip_whitelist_enabled) {
    errors.add('IP whitelisting is deprecated and cannot be enabled', 'ip_whitelist_enabled')
  }
  if (body.restricted !== undefined && body.restricted !== user.restricted) {
    errors.add('restricted cannot be changed from your profile', 'restricted')
  }
  if (body.two_factor_auth !== undefined && body.two_factor_auth !== user.two_factor_auth) {
    errors.add(
      'two_factor_auth is changed with /profile/tfa-enable, /profile/tfa-enable-confirm and /profile/tfa-disable',
      'two_factor_auth',
    )
  }
  errors.throwIfAny()

  const values: UserRowUpdate = {
    ...(body.email !== undefined && { email: body.email }),
    ...(body.timezone !== undefined && { timezone: body.timezone }),
    ...(body.email_notifications !== undefined && { email_notifications: body.email_notifications }),
    ...(body.shell_auth_method !== undefined && { shell_auth_method: body.shell_auth_method }),
    ...(body.ip_whitelist_enabled === false && { ip_whitelist_enabled: false }),
    ...(body.authorized_keys !== undefined && {
      authorized_keys:
        body.authorized_keys === null || body.authorized_keys.length === 0
          ? null
          : JSON.stringify(body.authorized_keys),
    }),
  }
  return inContextTransaction(ctx, async ({ db, clock, actor }) => {
    const updated = Object.keys(values).length === 0 ? user : await updateUserSettings(db, user.id, values)
    await recordEvent(db, profileEvent(actor, 'profile_update', profileEntity(actor), nowTimestamp(clock)))
    return toProfile(updated)
  })
}
