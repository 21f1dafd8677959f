import type { Kysely } from 'kysely'

/**
 * Images keep their tags (a JSON array of strings, sorted and without repeats), which the real
 * service's naming sends and takes (docs/decisions.md, "Fields of later versions"). Frozen once
 * released.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('images')
    .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute()
}

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('images').dropColumn('tags').execute()
}
