import type { RequestContext } from '../../../common/context.ts'
import type { GrantsDocument } from '../../grants/grants.schemas.ts'
import { buildGrantsDocument } from '../../grants/grants.service.ts'

/**
 * GET /profile/grants: undefined (204, no body) for an unrestricted user
 * (docs/decisions.md#grants-of-unrestricted-users); for a restricted user their grants, leaving out
 * entities they cannot access.
 */
export async function getProfileGrants(ctx: RequestContext): Promise<GrantsDocument | undefined> {
  const { user } = ctx.actor
  if (!user.restricted) return undefined
  return buildGrantsDocument(ctx.db, user, true)
}
