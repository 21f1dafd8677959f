import { forbidden, invalidToken } from '../../common/errors.ts'
import type { Db } from '../../db/connect.ts'
import type { Actor } from '../auth/actor.ts'
import type { GlobalGrantFlag, GrantEntityType, Permission } from './grant-types.ts'
import * as repo from './grants.repository.ts'

/** Whose entities a list shows: the account's, and of those only the granted ones if restricted. */
export interface GrantedListScope {
  accountId: number
  /** A restricted user, who sees only the entities granted to them; null: all of the account's. */
  restrictedUserId: number | null
}

export function grantedListScope(actor: Actor): GrantedListScope {
  return { accountId: actor.accountId, restrictedUserId: actor.user.restricted ? actor.user.id : null }
}

/**
 * The one place grants are enforced (docs/service-facts.md#grants). Unrestricted users pass every
 * check; a restricted user needs the `global` flag or the entity permission, else 403
 * `Unauthorized` (docs/decisions.md#missing-grant).
 * Callers look the entity up within the actor's account first, so another account's entity is a
 * 404 before any grant is consulted.
 */
export async function assertGlobalGrant(db: Db, actor: Actor, flag: GlobalGrantFlag): Promise<void> {
  if (!actor.user.restricted) return
  if (!(await repo.hasGlobalGrant(db, actor.user.id, flag))) throw forbidden()
}

export async function assertEntityGrant(
  db: Db,
  actor: Actor,
  type: GrantEntityType,
  entityId: number,
  needed: Permission,
): Promise<void> {
  if (!actor.user.restricted) return
  const held = await repo.findEntityPermission(db, actor.user.id, type, entityId)
  if (held === undefined || (needed === 'read_write' && held !== 'read_write')) throw forbidden()
}

/**
 * The account's own information (`/account`): a restricted user needs the `account_access` global
 * grant, `read_write` to change it.
 */
export async function assertAccountAccess(db: Db, actor: Actor, needed: Permission): Promise<void> {
  if (!actor.user.restricted) return
  const held = (await repo.findGlobalGrants(db, actor.user.id))?.account_access
  if (held == null || (needed === 'read_write' && held !== 'read_write')) throw forbidden()
}

/** Account-level areas (users, grants of others) are for unrestricted users only. */
export function assertUnrestricted(actor: Actor): void {
  if (actor.user.restricted) throw forbidden()
}

/** A restricted user who creates an entity gets `read_write` on it, as in the real API. */
export async function grantToCreator(
  db: Db,
  actor: Actor,
  type: GrantEntityType,
  entityId: number,
): Promise<void> {
  if (!actor.user.restricted) return
  // An administrator may be deleting the creator meanwhile: the creation then fails as their
  // token now does, rather than granting to a user who is gone (a 500 on the foreign key).
  if ((await repo.lockGrantee(db, actor.user.id)) === undefined) throw invalidToken()
  await repo.setEntityPermission(db, actor.user.id, type, entityId, 'read_write')
}
