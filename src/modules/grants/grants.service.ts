import { ErrorCollector } from '../../common/errors.ts'
import type { Db } from '../../db/connect.ts'
import type { UserRow } from '../users/users.table.ts'
import {
  GLOBAL_GRANT_FLAGS,
  type GlobalGrantFlag,
  GRANT_ENTITY_TYPES,
  type GrantEntityType,
  type Permission,
} from './grant-types.ts'
import * as repo from './grants.repository.ts'
import type { GlobalGrants, Grant, GrantsDocument, UpdateGrantsBody } from './grants.schemas.ts'
import type { GlobalGrantRow } from './grants.table.ts'

/** A user's global grants; a user without a row holds none of the flags. */
function toGlobal(row: GlobalGrantRow | undefined): GlobalGrants {
  const flags = {} as Record<GlobalGrantFlag, boolean>
  for (const flag of GLOBAL_GRANT_FLAGS) flags[flag] = row?.[flag] ?? false
  return { account_access: (row?.account_access ?? null) as GlobalGrants['account_access'], ...flags }
}

/**
 * A restricted user's grants document. `onlyGranted` leaves out entities the user cannot access
 * (what `/profile/grants` shows); otherwise every entity of the account is listed, with
 * `permissions: null` where there is no grant (what an account admin edits).
 */
export async function buildGrantsDocument(
  db: Db,
  user: UserRow,
  onlyGranted: boolean,
): Promise<GrantsDocument> {
  const [global, held, ...entities] = await Promise.all([
    repo.findGlobalGrants(db, user.id),
    repo.listEntityGrants(db, user.id),
    ...GRANT_ENTITY_TYPES.map((type) => repo.listGrantableEntities(db, type, user.account_id)),
  ])
  const permissionOf = new Map(
    held.map((g) => [`${g.entity_type}:${g.entity_id}`, g.permissions as Permission]),
  )
  const lists = {} as Record<GrantEntityType, Grant[]>
  GRANT_ENTITY_TYPES.forEach((type, i) => {
    const grants = (entities[i] ?? []).map((e) => ({
      id: e.id,
      label: e.label,
      permissions: permissionOf.get(`${type}:${e.id}`) ?? null,
    }))
    lists[type] = onlyGranted ? grants.filter((g) => g.permissions !== null) : grants
  })
  return { ...lists, global: toGlobal(global) }
}

/**
 * Changes a restricted user's grants: entity kinds the body leaves out keep theirs, and an entity
 * that is not the account's is refused. Call it in the transaction that found the user.
 */
export async function changeUserGrants(
  db: Db,
  user: UserRow,
  body: UpdateGrantsBody,
): Promise<GrantsDocument> {
  const errors = new ErrorCollector()
  const updates: Array<[GrantEntityType, number, Permission | null]> = []
  for (const type of GRANT_ENTITY_TYPES) {
    const requested = body[type]
    if (requested === undefined) continue
    const existing = new Set((await repo.listGrantableEntities(db, type, user.account_id)).map((e) => e.id))
    requested.forEach((grant, i) => {
      if (!existing.has(grant.id)) errors.add('Entity not found', `${type}[${i}].id`)
      else updates.push([type, grant.id, grant.permissions as Permission | null])
    })
  }
  errors.throwIfAny()
  await repo.ensureGlobalGrants(db, user.id)
  if (body.global) {
    const values: Record<string, unknown> = {}
    for (const flag of GLOBAL_GRANT_FLAGS)
      if (body.global[flag] !== undefined) values[flag] = body.global[flag]
    if (body.global.account_access !== undefined) values.account_access = body.global.account_access
    await repo.updateGlobalGrants(db, user.id, values)
  }
  for (const [type, id, permissions] of updates)
    await repo.setEntityPermission(db, user.id, type, id, permissions)
  return buildGrantsDocument(db, user, false)
}

/** A restricted user's global flags: all off, unless the user has them already. */
export function ensureGlobalGrants(db: Db, userId: number): Promise<void> {
  return repo.ensureGlobalGrants(db, userId)
}

/** A user turned unrestricted needs no grants: they are removed, global flags included. */
export function deleteAllGrants(db: Db, userId: number): Promise<void> {
  return repo.deleteAllGrants(db, userId)
}

/** An entity is gone: so are every user's grants on it. */
export function deleteEntityGrants(db: Db, type: GrantEntityType, entityId: number): Promise<void> {
  return repo.deleteEntityGrants(db, type, entityId)
}
