import type { Kysely } from 'kysely'
import { notNull, withId } from './helpers.ts'

/**
 * VPCs, subnets and the compute slice they attach to (instances, config profiles, interfaces,
 * disks, the type catalogue), plus per-account limits an operator can raise. Each resource kind
 * draws ids from its own sequence (docs/decisions.md#ids). Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('account_limits')
    .addColumn('account_id', 'bigint', (c) => c.primaryKey().references('accounts.id').onDelete('cascade'))
    .addColumn('vpcs_per_region', 'integer')
    .execute()

  await withId(db, db.schema.createTable('vpcs'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('description', 'text', notNull)
    .addColumn('region', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp')
    // Wire JSON of the fields around `subnets`, rendered when the row is written (vpc-json.ts).
    .addColumn('json_head', 'text', notNull)
    .addColumn('json_tail', 'text', notNull)
    .execute()
  // Labels are unique per account; the index also settles concurrent creates of one label.
  await db.schema
    .createIndex('vpcs_account_label')
    .on('vpcs')
    .columns(['account_id', 'label'])
    .unique()
    .execute()
  await db.schema.createIndex('vpcs_account_id').on('vpcs').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('vpcs_account_region').on('vpcs').columns(['account_id', 'region']).execute()

  await withId(db, db.schema.createTable('subnets'))
    .addColumn('vpc_id', 'bigint', (c) => c.notNull().references('vpcs.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('ipv4', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp')
    // Wire JSON of the fields around `linodes`, rendered when the row is written (vpc-json.ts).
    .addColumn('json_head', 'text', notNull)
    .addColumn('json_tail', 'text', notNull)
    .execute()
  await db.schema
    .createIndex('subnets_vpc_label')
    .on('subnets')
    .columns(['vpc_id', 'label'])
    .unique()
    .execute()
  // Covering: a VPC's subnets are rendered from the index alone (the VPC reads are the hot paths).
  await db.schema
    .createIndex('subnets_vpc_id')
    .on('subnets')
    .columns(['vpc_id', 'id', 'json_head', 'json_tail'])
    .execute()

  await db.schema
    .createTable('compute_types')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('label', 'text', notNull)
    .addColumn('class', 'text', notNull)
    .addColumn('memory', 'integer', notNull)
    .addColumn('disk', 'integer', notNull)
    .addColumn('transfer', 'integer', notNull)
    .addColumn('vcpus', 'integer', notNull)
    .addColumn('gpus', 'integer', notNull)
    .addColumn('network_out', 'integer', notNull)
    .addColumn('price', 'text', notNull)
    .addColumn('region_prices', 'text', notNull)
    .addColumn('addons', 'text', notNull)
    .addColumn('successor', 'text')
    .addColumn('position', 'integer', notNull)
    .execute()

  await withId(db, db.schema.createTable('compute_instances'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('display_group', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('type', 'text', notNull)
    .addColumn('region', 'text', notNull)
    .addColumn('image', 'text')
    .addColumn('ipv4', 'text', notNull)
    .addColumn('ipv6', 'text', notNull)
    .addColumn('host_uuid', 'text', notNull)
    .addColumn('watchdog_enabled', 'boolean', notNull)
    .addColumn('alerts', 'text', notNull)
    .addColumn('tags', 'text', notNull)
    .addColumn('has_user_data', 'boolean', notNull)
    .addColumn('booted_config_id', 'bigint')
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('compute_instances_account_label')
    .on('compute_instances')
    .columns(['account_id', 'label'])
    .unique()
    .execute()
  await db.schema
    .createIndex('compute_instances_account_id')
    .on('compute_instances')
    .columns(['account_id', 'id'])
    .execute()
  await db.schema
    .createIndex('compute_instances_region_ipv4')
    .on('compute_instances')
    .columns(['region', 'ipv4'])
    .unique()
    .execute()

  // The last public IPv4 host number handed out per region (see instances/public-ips).
  await db.schema
    .createTable('compute_ipv4_pools')
    .addColumn('region', 'text', (c) => c.primaryKey())
    .addColumn('allocated', 'bigint', notNull)
    .execute()

  await withId(db, db.schema.createTable('compute_disks'))
    .addColumn('instance_id', 'bigint', (c) =>
      c.notNull().references('compute_instances.id').onDelete('cascade'),
    )
    .addColumn('label', 'text', notNull)
    .addColumn('status', 'text', notNull)
    .addColumn('size', 'integer', notNull)
    .addColumn('filesystem', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('compute_disks_instance')
    .on('compute_disks')
    .columns(['instance_id', 'id'])
    .execute()

  await withId(db, db.schema.createTable('compute_configs'))
    .addColumn('instance_id', 'bigint', (c) =>
      c.notNull().references('compute_instances.id').onDelete('cascade'),
    )
    .addColumn('label', 'text', notNull)
    .addColumn('kernel', 'text', notNull)
    .addColumn('comments', 'text', notNull)
    .addColumn('memory_limit', 'integer', notNull)
    .addColumn('root_device', 'text', notNull)
    .addColumn('run_level', 'text', notNull)
    .addColumn('virt_mode', 'text', notNull)
    .addColumn('helpers', 'text', notNull)
    .addColumn('devices', 'text', notNull)
    .addColumn('initrd', 'bigint')
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  await db.schema
    .createIndex('compute_configs_instance')
    .on('compute_configs')
    .columns(['instance_id', 'id'])
    .execute()

  await withId(db, db.schema.createTable('compute_interfaces'))
    .addColumn('config_id', 'bigint', (c) => c.notNull().references('compute_configs.id').onDelete('cascade'))
    .addColumn('instance_id', 'bigint', notNull)
    .addColumn('position', 'integer', notNull)
    .addColumn('purpose', 'text', notNull)
    .addColumn('label', 'text')
    .addColumn('ipam_address', 'text')
    .addColumn('is_primary', 'boolean', notNull)
    .addColumn('active', 'boolean', notNull)
    .addColumn('vpc_id', 'bigint')
    // No cascade: a subnet in use cannot disappear under its interfaces (checked at statement end,
    // so an account's cascading delete still works).
    .addColumn('subnet_id', 'bigint', (c) => c.references('subnets.id'))
    .addColumn('ipv4_vpc', 'text')
    .addColumn('nat_1_1', 'text')
    .execute()
  await db.schema
    .createIndex('compute_interfaces_config')
    .on('compute_interfaces')
    .columns(['config_id', 'position'])
    .execute()
  await db.schema
    .createIndex('compute_interfaces_instance')
    .on('compute_interfaces')
    .columns(['instance_id', 'id'])
    .execute()
  await db.schema
    .createIndex('compute_interfaces_subnet')
    .on('compute_interfaces')
    .columns(['subnet_id', 'id'])
    .execute()
  await db.schema
    .createIndex('compute_interfaces_vpc')
    .on('compute_interfaces')
    .columns(['vpc_id', 'id'])
    .execute()

  await db.schema
    .createTable('compute_interface_ranges')
    .addColumn('interface_id', 'bigint', (c) =>
      c.notNull().references('compute_interfaces.id').onDelete('cascade'),
    )
    .addColumn('position', 'integer', notNull)
    .addColumn('range', 'text', notNull)
    .addPrimaryKeyConstraint('compute_interface_ranges_pk', ['interface_id', 'position'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'compute_interface_ranges',
    'compute_interfaces',
    'compute_configs',
    'compute_disks',
    'compute_ipv4_pools',
    'compute_instances',
    'compute_types',
    'subnets',
    'vpcs',
    'account_limits',
  ]) {
    await db.schema.dropTable(table).execute()
  }
}
