import type { Db } from '../../../db/connect.ts'
import type { Actor } from '../../auth/actor.ts'
import type { GrantsDocument } from '../../grants/grants.schemas.ts'
import { buildGrantsDocument } from '../../grants/grants.service.ts'

/**
 * GET /profile/grants: undefined (204, no body) for an unrestricted user (Decisions, 11); for a
 * restricted user their grants, leaving out entities they cannot access.
 */
export async function getProfileGrants(db: Db, actor: Actor): Promise<GrantsDocument | undefined> {
  if (!actor.user.restricted) return undefined
  return buildGrantsDocument(db, actor.user, true)
}
