import type { Kysely } from 'kysely'
import { notNull, withId } from './helpers.ts'

/**
 * Block storage volumes (attached to at most one instance) and DNS domains with their records.
 * Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await withId(db, db.schema.createTable('volumes'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('region', 'text', notNull)
    .addColumn('size', 'integer', notNull)
    .addColumn('status', 'text', notNull)
    // A deleted instance leaves its volumes detached.
    .addColumn('linode_id', 'bigint', (c) => c.references('compute_instances.id').onDelete('set null'))
    .addColumn('config_id', 'bigint', (c) => c.references('compute_configs.id').onDelete('set null'))
    .addColumn('hardware_type', 'text', notNull)
    .addColumn('encryption', 'text', notNull)
    // JSON array of tags.
    .addColumn('tags', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  // Labels are unique per account; the index also settles concurrent creates of one label.
  await db.schema
    .createIndex('volumes_account_label')
    .on('volumes')
    .columns(['account_id', 'label'])
    .unique()
    .execute()
  await db.schema.createIndex('volumes_account_id').on('volumes').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('volumes_linode_id').on('volumes').column('linode_id').execute()
  await db.schema.createIndex('volumes_config_id').on('volumes').column('config_id').execute()

  await withId(db, db.schema.createTable('domains'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('domain', 'text', notNull)
    .addColumn('type', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('soa_email', 'text', notNull)
    .addColumn('description', 'text', notNull)
    .addColumn('group', 'text', notNull)
    // JSON arrays of addresses.
    .addColumn('master_ips', 'text', notNull)
    .addColumn('axfr_ips', 'text', notNull)
    .addColumn('ttl_sec', 'integer', notNull)
    .addColumn('refresh_sec', 'integer', notNull)
    .addColumn('retry_sec', 'integer', notNull)
    .addColumn('expire_sec', 'integer', notNull)
    .addColumn('tags', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('domains_account_domain')
    .on('domains')
    .columns(['account_id', 'domain'])
    .unique()
    .execute()
  await db.schema.createIndex('domains_account_id').on('domains').columns(['account_id', 'id']).execute()

  await withId(db, db.schema.createTable('domain_records'))
    .addColumn('domain_id', 'bigint', (c) => c.notNull().references('domains.id').onDelete('cascade'))
    .addColumn('type', 'text', notNull)
    .addColumn('name', 'text', notNull)
    .addColumn('target', 'text', notNull)
    .addColumn('priority', 'integer', notNull)
    .addColumn('weight', 'integer', notNull)
    .addColumn('port', 'integer', notNull)
    .addColumn('service', 'text')
    .addColumn('protocol', 'text')
    .addColumn('ttl_sec', 'integer', notNull)
    .addColumn('tag', 'text')
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('domain_records_domain_id')
    .on('domain_records')
    .columns(['domain_id', 'id'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('domain_records').execute()
  await db.schema.dropTable('domains').execute()
  await db.schema.dropTable('volumes').execute()
}
