import { type MigrationResultSet, Migrator } from 'kysely/migration'
import { migrations } from '../../src/db/migrations/index.ts'
import type { TestDatabase } from './dialects.ts'

/**
 * Migrates a test database up to the migration `name` and no further, for a test of the next
 * migration on data written in the schema before it. On PostgreSQL the migrator's own tables go
 * in the test's schema, as the server's migrator puts them (src/db/migrate.ts).
 */
export function migrateTo(database: TestDatabase, name: string): Promise<MigrationResultSet> {
  const migrator = new Migrator({
    db: database.db,
    provider: { getMigrations: async () => migrations },
    ...(database.schema !== undefined && { migrationTableSchema: database.schema }),
  })
  return migrator.migrateTo(name)
}
