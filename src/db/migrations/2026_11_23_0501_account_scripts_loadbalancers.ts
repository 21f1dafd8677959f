import type { Kysely } from 'kysely'
import { notNull, withId } from './helpers.ts'

/** The account's contact fields, empty until the account sets them (`PUT /account`). */
const ACCOUNT_CONTACT_COLUMNS = [
  'company',
  'email',
  'first_name',
  'last_name',
  'address_1',
  'address_2',
  'city',
  'state',
  'zip',
  'country',
  'phone',
  'tax_id',
] as const

/**
 * The account's contact fields, load balancers, and scripts (the public catalogue and the
 * accounts' own), with the script an instance was deployed with. Frozen once released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of ACCOUNT_CONTACT_COLUMNS) {
    await db.schema
      .alterTable('accounts')
      .addColumn(column, 'text', (c) => c.notNull().defaultTo(''))
      .execute()
  }

  await withId(db, db.schema.createTable('loadbalancers'))
    .addColumn('account_id', 'bigint', (c) => c.notNull().references('accounts.id').onDelete('cascade'))
    .addColumn('label', 'text', notNull)
    .addColumn('region', 'text', notNull)
    .addColumn('hostname', 'text', notNull)
    .addColumn('ipv4', 'text', notNull)
    .addColumn('ipv6', 'text', notNull)
    .addColumn('client_conn_throttle', 'integer', notNull)
    // JSON array of tags.
    .addColumn('tags', 'text', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .execute()
  // Labels are unique per account; the index also settles concurrent creates of one label.
  await db.schema
    .createIndex('loadbalancers_account_label')
    .on('loadbalancers')
    .columns(['account_id', 'label'])
    .unique()
    .execute()
  await db.schema
    .createIndex('loadbalancers_account_id')
    .on('loadbalancers')
    .columns(['account_id', 'id'])
    .execute()

  await withId(db, db.schema.createTable('scripts'))
    // NULL for the public catalogue's scripts, which belong to no account.
    .addColumn('account_id', 'bigint', (c) => c.references('accounts.id').onDelete('cascade'))
    // The catalogue's key of a public catalogue script (to update it in place on start), else NULL.
    .addColumn('catalogue_key', 'text', (c) => c.unique())
    .addColumn('username', 'text', notNull)
    .addColumn('user_gravatar_id', 'text', notNull)
    .addColumn('label', 'text', notNull)
    .addColumn('description', 'text', notNull)
    .addColumn('ordinal', 'integer', notNull)
    .addColumn('logo_url', 'text', notNull)
    // JSON array of the image ids the script can be deployed with (or `any/all`).
    .addColumn('images', 'text', notNull)
    .addColumn('deployments_total', 'integer', notNull)
    .addColumn('deployments_active', 'integer', notNull)
    .addColumn('is_public', 'boolean', notNull)
    .addColumn('created', 'timestamp', notNull)
    .addColumn('updated', 'timestamp', notNull)
    .addColumn('rev_note', 'text', notNull)
    .addColumn('script', 'text', notNull)
    // JSON array of the fields parsed from the script's UDF tags.
    .addColumn('user_defined_fields', 'text', notNull)
    .execute()
  await db.schema.createIndex('scripts_account_id').on('scripts').columns(['account_id', 'id']).execute()
  await db.schema.createIndex('scripts_public_id').on('scripts').columns(['is_public', 'id']).execute()

  // The script an instance was deployed with (kept when the script is deleted later, as an id).
  await db.schema.alterTable('compute_instances').addColumn('stackscript_id', 'bigint').execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('compute_instances').dropColumn('stackscript_id').execute()
  await db.schema.dropTable('scripts').execute()
  await db.schema.dropTable('loadbalancers').execute()
  for (const column of ACCOUNT_CONTACT_COLUMNS) {
    await db.schema.alterTable('accounts').dropColumn(column).execute()
  }
}
