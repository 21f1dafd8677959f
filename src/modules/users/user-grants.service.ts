import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { badRequest } from '../../common/errors.ts'
import type { GrantsDocument, UpdateGrantsBody } from '../grants/grants.schemas.ts'
import { buildGrantsDocument, changeUserGrants } from '../grants/grants.service.ts'
import { accessUser, lockUserToChange } from './users.service.ts'

/** GET /account/users/{username}/grants: undefined (204) for an unrestricted user. */
export async function getUserGrants(
  ctx: RequestContext,
  ids: { username: string },
): Promise<GrantsDocument | undefined> {
  const user = await accessUser(ctx, ids)
  if (!user.restricted) return undefined
  return buildGrantsDocument(ctx.db, user, false)
}

export async function updateUserGrants(
  ctx: RequestContext,
  ids: { username: string },
  body: UpdateGrantsBody,
): Promise<GrantsDocument> {
  return inContextTransaction(ctx, async (tx) => {
    const user = await lockUserToChange(tx, ids)
    if (!user.restricted) throw badRequest('Grants are not available for unrestricted users')
    return changeUserGrants(tx.db, user, body)
  })
}
