import type { Kysely } from 'kysely'

/**
 * The image list reads an account's private images in the list's order (`is_public`, `position`,
 * then `id`) from this index and stops after one page, however many images other accounts hold;
 * without it the planner walked every private image in the table by position. Frozen once
 * released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('images_account_order')
    .on('images')
    .columns(['account_id', 'is_public', 'position', 'id'])
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('images_account_order').execute()
}
