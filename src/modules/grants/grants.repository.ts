import { sql } from 'kysely'
import type { Db } from '../../db/connect.ts'
import { GRANT_ENTITY_TABLES } from './grant-entities.ts'
import type { GlobalGrantFlag, GrantEntityType, Permission } from './grant-types.ts'
import type { EntityGrantRow, GlobalGrantRow } from './grants.table.ts'

export async function findGlobalGrants(db: Db, userId: number): Promise<GlobalGrantRow | undefined> {
  return db.selectFrom('global_grants').selectAll().where('user_id', '=', userId).executeTakeFirst()
}

export async function hasGlobalGrant(db: Db, userId: number, flag: GlobalGrantFlag): Promise<boolean> {
  const row = await db
    .selectFrom('global_grants')
    .select(flag)
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return row?.[flag] === true
}

export async function findEntityPermission(
  db: Db,
  userId: number,
  type: GrantEntityType,
  entityId: number,
): Promise<Permission | undefined> {
  const row = await db
    .selectFrom('entity_grants')
    .select('permissions')
    .where('user_id', '=', userId)
    .where('entity_type', '=', type)
    .where('entity_id', '=', entityId)
    .executeTakeFirst()
  return row?.permissions as Permission | undefined
}

export async function listEntityGrants(db: Db, userId: number): Promise<EntityGrantRow[]> {
  return db.selectFrom('entity_grants').selectAll().where('user_id', '=', userId).execute()
}

export async function ensureGlobalGrants(db: Db, userId: number): Promise<void> {
  await db
    .insertInto('global_grants')
    .values({
      user_id: userId,
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
    })
    .onConflict((oc) => oc.column('user_id').doNothing())
    .execute()
}

export async function updateGlobalGrants(
  db: Db,
  userId: number,
  values: Partial<Omit<GlobalGrantRow, 'user_id'>>,
): Promise<void> {
  if (Object.keys(values).length === 0) return
  await db.updateTable('global_grants').set(values).where('user_id', '=', userId).execute()
}

export async function setEntityPermission(
  db: Db,
  userId: number,
  type: GrantEntityType,
  entityId: number,
  permissions: Permission | null,
): Promise<void> {
  if (permissions === null) {
    await db
      .deleteFrom('entity_grants')
      .where('user_id', '=', userId)
      .where('entity_type', '=', type)
      .where('entity_id', '=', entityId)
      .execute()
    return
  }
  await db
    .insertInto('entity_grants')
    .values({ user_id: userId, entity_type: type, entity_id: entityId, permissions })
    .onConflict((oc) => oc.columns(['user_id', 'entity_type', 'entity_id']).doUpdateSet({ permissions }))
    .execute()
}

export async function deleteAllGrants(db: Db, userId: number): Promise<void> {
  await db.deleteFrom('entity_grants').where('user_id', '=', userId).execute()
  await db.deleteFrom('global_grants').where('user_id', '=', userId).execute()
}

/** Removes every user's grant on an entity that is being deleted. */
export async function deleteEntityGrants(db: Db, type: GrantEntityType, entityId: number): Promise<void> {
  await db
    .deleteFrom('entity_grants')
    .where('entity_type', '=', type)
    .where('entity_id', '=', entityId)
    .execute()
}

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
