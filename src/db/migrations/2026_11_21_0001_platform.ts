import { type Kysely, sql } from 'kysely'
import { isPostgres, notNull, withId } from './helpers.ts'

/**
 * Platform tables: accounts, users, tokens, authorized apps, grants, events, the region catalogue
 * and a key/value table for server metadata. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('meta')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', notNull)
    .execute()

  await withId(db, db.schema.createTable('accounts'))
    .addColumn('uuid', 'text', (c) => c.notNull().unique())
    .addColumn('created', 'timestamp', notNull)
    .execute()

  await withId(db, db.schema.createTable('users'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', notNull)
    .addColumn('restricted', 'boolean', notNull)
    .addColumn('email_notifications', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('US/Eastern'))
    .addColumn('authentication_type', 'text', (c) => c.notNull().defaultTo('password'))
    .addColumn('authorized_keys', 'text')
    .addColumn('shell_auth_method', 'text', (c) => c.notNull().defaultTo('password_keys'))
    .addColumn('ip_whitelist_enabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('two_factor_auth', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('verified_phone_number', 'text')
    .addColumn('referral_code', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .execute()
  await db.schema.createIndex('users_account_id').on('users').column('account_id').execute()

  await withId(db, db.schema.createTable('authorized_apps'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('client_id', 'text', notNull)
    .addColumn('label', 'text', notNull)
    .addColumn('scopes', 'text', notNull)
    .addColumn('website', 'text', notNull)
    .addColumn('thumbnail_url', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('expiry', 'timestamp')
    .execute()
  await db.schema.createIndex('authorized_apps_user_id').on('authorized_apps').column('user_id').execute()

  await withId(db, db.schema.createTable('tokens'))
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('authorized_app_id', 'bigint', (c) => c.references('authorized_apps.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('scopes', 'text', notNull)
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('token_prefix', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('expiry', 'timestamp')
    .execute()
  await db.schema.createIndex('tokens_user_id').on('tokens').columns(['user_id', 'id']).execute()
  await db.schema.createIndex('tokens_authorized_app_id').on('tokens').column('authorized_app_id').execute()

  await db.schema
    .createTable('global_grants')
    .addColumn('user_id', 'bigint', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('account_access', 'text')
    .addColumn('add_databases', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_domains', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_firewalls', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_images', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_computes', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_monitoring', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_loadbalancers', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_scripts', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_volumes', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('add_vpcs', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('cancel_account', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('monitoring_subscription', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute()

  await db.schema
    .createTable('entity_grants')
    .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('entity_type', 'text', notNull)
    .addColumn('entity_id', 'bigint', notNull)
    .addColumn('permissions', 'text', notNull)
    .addPrimaryKeyConstraint('entity_grants_pk', ['user_id', 'entity_type', 'entity_id'])
    .execute()
  await db.schema
    .createIndex('entity_grants_entity')
    .on('entity_grants')
    .columns(['entity_type', 'entity_id'])
    .execute()

  await withId(db, db.schema.createTable('events'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('user_id', 'bigint')
    .addColumn('username', 'text')
    .addColumn('action', 'text', notNull)
    .addColumn('entity_type', 'text')
    .addColumn('entity_id', 'bigint')
    .addColumn('entity_label', 'text')
    .addColumn('entity_url', 'text')
    .addColumn('secondary_entity_type', 'text')
    .addColumn('secondary_entity_id', 'text')
    .addColumn('secondary_entity_label', 'text')
    .addColumn('secondary_entity_url', 'text')
    .addColumn('status', 'text', notNull)
    .addColumn('percent_complete', 'integer')
    .addColumn('rate', 'text')
    .addColumn('time_remaining', 'text')
    .addColumn('duration', 'integer')
    .addColumn('message', 'text')
    .addColumn('seen', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('read', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('grant_entity_type', 'text')
    .addColumn('grant_entity_id', 'bigint')
    .addColumn('created', 'timestamp', notNull)
    // The wire JSON of every key after `read`, rendered when the row is written (lists read it).
    .addColumn('json_tail', 'text', notNull)
    .execute()
  await db.schema.createIndex('events_account_id').on('events').columns(['account_id', 'id']).execute()
  await db.schema
    .createIndex('events_account_created')
    .on('events')
    .columns(['account_id', 'created', 'id'])
    .execute()
  await db.schema
    .createIndex('events_account_action')
    .on('events')
    .columns(['account_id', 'action', 'id'])
    .execute()
  // Event pollers filter on entity.type + entity.id; lists filter on entity.type ordered by created.
  await db.schema
    .createIndex('events_account_entity')
    .on('events')
    .columns(['account_id', 'entity_type', 'entity_id', 'id'])
    .execute()
  await db.schema
    .createIndex('events_account_type_created')
    .on('events')
    .columns(['account_id', 'entity_type', 'created', 'id'])
    .execute()

  // SQLite only: a counter every change to credentials bumps, whichever process makes it. The
  // token cache re-reads a token when it moved (PostgreSQL reads tokens on every request).
  if (!isPostgres(db)) {
    await db.schema
      .createTable('change_counters')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('value', 'integer', notNull)
      .execute()
    await sql`insert into change_counters (name, value) values ('auth', 0)`.execute(db)
    for (const table of ['tokens', 'users', 'authorized_apps', 'accounts']) {
      for (const event of ['update', 'delete']) {
        await sql
          .raw(
            `create trigger ${table}_${event}_auth after ${event} on ${table} begin update change_counters set value = value + 1 where name = 'auth'; end`,
          )
          .execute(db)
      }
    }
  }

  await db.schema
    .createTable('regions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', notNull)
    .addColumn('country', 'text', notNull)
    .addColumn('capabilities', 'text', notNull)
    .addColumn('resolvers_ipv4', 'text', notNull)
    .addColumn('resolvers_ipv6', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('site_type', 'text', notNull)
    .addColumn('position', 'integer', notNull)
    .execute()

  await db.schema
    .createTable('region_availability')
    .addColumn('region', 'text', (c) => c.notNull().references('regions.id').onDelete('cascade'))
    .addColumn('plan', 'text', notNull)
    .addColumn('available', 'boolean', notNull)
    .addColumn('position', 'integer', notNull)
    .addPrimaryKeyConstraint('region_availability_pk', ['region', 'plan'])
    .execute()
  await db.schema
    .createIndex('region_availability_position')
    .on('region_availability')
    .column('position')
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'region_availability',
    'regions',
    'events',
    'entity_grants',
    'global_grants',
    'tokens',
    'authorized_apps',
    'users',
    'accounts',
    'meta',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
