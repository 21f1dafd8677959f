import { type ColumnDefinitionBuilder, type CreateTableBuilder, type Kysely, PostgresAdapter } from 'kysely'

/**
 * Helpers shared by migrations. Like the migrations themselves, they are frozen once released:
 * change behaviour by adding a helper, never by editing one.
 */

// biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter
}

/**
 * A primary key drawn from the table's own sequence (one sequence per resource kind). SQLite's
 * AUTOINCREMENT, like a PostgreSQL identity, never hands out an id again after a delete.
 */
export function withId<T extends string>(
  // biome-ignore lint/suspicious/noExplicitAny: migrations work on an untyped database
  db: Kysely<any>,
  table: CreateTableBuilder<T, never>,
): CreateTableBuilder<T, 'id'> {
  return isPostgres(db)
    ? table.addColumn('id', 'bigint', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement())
}

export const notNull = (c: ColumnDefinitionBuilder) => c.notNull()
