import {
  type ColumnMetadata,
  type DatabaseMetadataOptions,
  type Kysely,
  PostgresIntrospector,
  sql,
  type TableMetadata,
} from 'kysely'
import { DEFAULT_MIGRATION_LOCK_TABLE, DEFAULT_MIGRATION_TABLE } from 'kysely/migration'

interface ColumnRow {
  schema: string
  table: string
  kind: string
  column: string
  type: string
  type_schema: string
  not_null: boolean
  has_default: boolean
  auto: boolean
  comment: string | null
}

/**
 * The catalogue as the migrator asks for it (do its tables exist?), read for the current schema
 * alone and by joins on oids alone. Kysely's own introspector reads every schema and calls
 * `pg_get_serial_sequence` by name for every column: a name looked up when the row is reached, not
 * as of the query's snapshot, so a column that another connection renamed or dropped meanwhile (a
 * process migrating beside this one, a test file migrating its own schema) failed the start with
 * "column … does not exist". A serial column is found here as that function finds it, through the
 * sequence that depends on it, but in the same snapshot as the rest. Schemas are Kysely's own
 * reading (one catalogue table, no names looked up).
 */
export class CurrentSchemaIntrospector extends PostgresIntrospector {
  // biome-ignore lint/suspicious/noExplicitAny: reads catalogue tables Kysely does not type
  readonly #db: Kysely<any>

  // biome-ignore lint/suspicious/noExplicitAny: reads catalogue tables Kysely does not type
  constructor(db: Kysely<any>) {
    super(db)
    this.#db = db
  }

  override async getTables(
    options: DatabaseMetadataOptions = { withInternalKyselyTables: false },
  ): Promise<TableMetadata[]> {
    const internal = options.withInternalKyselyTables
      ? sql``
      : sql`and c.relname not in (${DEFAULT_MIGRATION_TABLE}, ${DEFAULT_MIGRATION_LOCK_TABLE})`
    const { rows } = await sql<ColumnRow>`
      select n.nspname as schema, c.relname as table, c.relkind as kind, a.attname as column,
        t.typname as type, tn.nspname as type_schema, a.attnotnull as not_null,
        a.atthasdef as has_default, d.description as comment,
        a.attidentity <> '' or exists (
          select 1 from pg_catalog.pg_depend as dep
          join pg_catalog.pg_class as s on s.oid = dep.objid and s.relkind = 'S'
          where dep.classid = 'pg_catalog.pg_class'::regclass and dep.refobjid = c.oid
            and dep.refobjsubid = a.attnum and dep.deptype in ('a', 'i')) as auto
      from pg_catalog.pg_class as c
      join pg_catalog.pg_namespace as n on n.oid = c.relnamespace
      join pg_catalog.pg_attribute as a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
      join pg_catalog.pg_type as t on t.oid = a.atttypid
      join pg_catalog.pg_namespace as tn on tn.oid = t.typnamespace
      left join pg_catalog.pg_description as d
        on d.objoid = c.oid and d.classoid = 'pg_catalog.pg_class'::regclass and d.objsubid = a.attnum
      where n.nspname = current_schema() and c.relkind in ('r', 'v', 'p', 'f') ${internal}
      order by c.relname, a.attnum`.execute(this.#db)
    const tables = new Map<string, TableMetadata & { columns: ColumnMetadata[] }>()
    for (const row of rows) {
      let table = tables.get(row.table)
      if (table === undefined) {
        table = {
          name: row.table,
          schema: row.schema,
          isView: row.kind === 'v',
          isForeign: row.kind === 'f',
          columns: [],
        }
        tables.set(row.table, table)
      }
      table.columns.push({
        name: row.column,
        dataType: row.type,
        dataTypeSchema: row.type_schema,
        isAutoIncrementing: row.auto,
        isNullable: !row.not_null,
        hasDefaultValue: row.has_default,
        ...(row.comment !== null && { comment: row.comment }),
      })
    }
    return [...tables.values()]
  }
}
