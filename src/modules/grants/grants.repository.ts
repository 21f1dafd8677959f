import { sql } from 'kysely'
import type { Db } from '../../db/connect.ts'
import { deleteRows, findRow, findValue, rowsOf, updateRows, upsertRow } from '../../db/rows.ts'
import { GRANT_ENTITY_TABLES } from './grant-entities.ts'
import type { GlobalGrantFlag, GrantEntityType, Permission } from './grant-types.ts'
import type { EntityGrantRow, GlobalGrantRow } from './grants.table.ts'

export const findGlobalGrants = (db: Db, userId: number) => findRow(db, 'global_grants', { user_id: userId })

export async function hasGlobalGrant(db: Db, userId: number, flag: GlobalGrantFlag): Promise<boolean> {
  return (await findValue(db, 'global_grants', flag, { user_id: userId })) === true
}

export async function findEntityPermission(
  db: Db,
  userId: number,
  type: GrantEntityType,
  entityId: number,
): Promise<Permission | undefined> {
  const match = { user_id: userId, entity_type: type, entity_id: entityId }
  return (await findValue(db, 'entity_grants', 'permissions', match)) as Permission | undefined
}

export const listEntityGrants = (db: Db, userId: number): Promise<EntityGrantRow[]> =>
  rowsOf(db, 'entity_grants', { user_id: userId }).execute()

/** No global grant at all, unless the user has some already. */
const NO_GLOBAL_GRANTS: Omit<GlobalGrantRow, 'user_id'> = {
  account_access: null,
  add_databases: false,
  add_domains: false,
  add_firewalls: false,
  add_images: false,
  add_computes: false,
  add_monitoring: false,
  add_loadbalancers: false,
  add_scripts: false,
  add_volumes: false,
  add_vpcs: false,
  cancel_account: false,
  monitoring_subscription: false,
}

export const ensureGlobalGrants = (db: Db, userId: number) =>
  upsertRow(db, 'global_grants', { user_id: userId, ...NO_GLOBAL_GRANTS }, ['user_id'], 'keep')

export async function updateGlobalGrants(
  db: Db,
  userId: number,
  values: Partial<Omit<GlobalGrantRow, 'user_id'>>,
): Promise<void> {
  if (Object.keys(values).length === 0) return
  await updateRows(db, 'global_grants', { user_id: userId }, values)
}

/** The user, locked until the transaction ends (PostgreSQL): their deletion waits, or has happened. */
export const lockGrantee = (db: Db, userId: number) => findRow(db, 'users', { id: userId }, { lock: true })

/** Grants the permission on the entity, or with null takes the grant away. */
export async function setEntityPermission(
  db: Db,
  userId: number,
  type: GrantEntityType,
  entityId: number,
  permissions: Permission | null,
): Promise<void> {
  const key = { user_id: userId, entity_type: type, entity_id: entityId }
  if (permissions === null) await deleteRows(db, 'entity_grants', key)
  else await upsertRow(db, 'entity_grants', { ...key, permissions }, ['user_id', 'entity_type', 'entity_id'])
}

export async function deleteAllGrants(db: Db, userId: number): Promise<void> {
  await deleteRows(db, 'entity_grants', { user_id: userId })
  await deleteRows(db, 'global_grants', { user_id: userId })
}

/** Removes every user's grant on an entity that is being deleted. */
export const deleteEntityGrants = (db: Db, type: GrantEntityType, entityId: number) =>
  deleteRows(db, 'entity_grants', { entity_type: type, entity_id: entityId })

export interface GrantableEntity {
  id: number
  label: string
}

/** Every entity of one kind in an account, with its label, for the grants document. */
export async function listGrantableEntities(
  db: Db,
  type: GrantEntityType,
  accountId: number,
): Promise<GrantableEntity[]> {
  const source = GRANT_ENTITY_TABLES[type]
  if (source === undefined) return []
  const extra = source.where ? sql` and ${sql.raw(source.where)}` : sql``
  const result = await sql<GrantableEntity>`select id, ${sql.ref(source.label)} as label from ${sql.table(
    source.table,
  )} where account_id = ${accountId}${extra} order by id`.execute(db)
  return result.rows
}
