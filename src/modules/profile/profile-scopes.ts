import { categoryAuth } from '../../common/route-schemas.ts'

/**
 * Profile sub-resources: reads need `account:read_only`, writes `account:read_write`
 * (docs/service-facts.md#oauth-scopes).
 */
export const { read: profileRead, write: profileWrite } = categoryAuth('account')

export const PROFILE_TAGS = ['Profile']
