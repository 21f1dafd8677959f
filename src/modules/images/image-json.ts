import { type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../../db/dialects/dialect.ts'

/**
 * An image's wire JSON (ImageSchema: a public image's keys in their recorded order, a private
 * image's in theirs), rendered by the database from the `images` row of the query it is selected
 * in, so that a page of images is one string instead of rows mapped to objects and serialized
 * again through a union schema. Text goes through the engine's own JSON quoting (`json_quote`,
 * `to_json`), which escapes what JSON.stringify escapes (SQLite's `json_quote(null)` is `null`);
 * timestamps in the API's format; `capabilities` is stored as JSON.stringify wrote it. A test
 * holds the result equal to what the API serializes.
 */
export function imageJson(dialect: SqlDialect): RawBuilder<string> {
  return dialect === 'postgres' ? postgresImageJson : sqliteImageJson
}

/** Each wire field of an image as JSON text, in one dialect. */
type Fields = Record<
  | 'id'
  | 'label'
  | 'description'
  | 'created'
  | 'updated'
  | 'size'
  | 'created_by'
  | 'type'
  | 'is_public'
  | 'deprecated'
  | 'vendor'
  | 'expiry'
  | 'eol'
  | 'status'
  | 'capabilities',
  string
>

const PRIVATE_ORDER: Array<keyof Fields> = [
  'id',
  'label',
  'description',
  'created',
  'updated',
  'size',
  'created_by',
  'type',
  'is_public',
  'deprecated',
  'vendor',
  'expiry',
  'eol',
  'status',
  'capabilities',
]

const PUBLIC_ORDER: Array<keyof Fields> = [
  'id',
  'label',
  'deprecated',
  'size',
  'created',
  'updated',
  'description',
  'created_by',
  'type',
  'is_public',
  'vendor',
  'expiry',
  'eol',
  'status',
  'capabilities',
]

const bool = (column: string) => `case when ${column} then 'true' else 'false' end`

/** The parts of one object, in order: constant text and expressions, alternating. */
const parts = (fields: Fields, order: Array<keyof Fields>): string[] =>
  order.flatMap((key, i) => [`'${i === 0 ? '{' : ','}"${key}":'`, fields[key]]).concat(`'}'`)

const sqliteQuote = (column: string) => `json_quote(${column})`
const sqliteFields: Fields = {
  id: `json_quote(coalesce(images.slug, 'private/' || images.id))`,
  label: sqliteQuote('images.label'),
  description: sqliteQuote('images.description'),
  created: sqliteQuote('images.created'),
  updated: sqliteQuote('images.updated'),
  size: 'images.size',
  created_by: sqliteQuote('images.created_by'),
  type: sqliteQuote('images.type'),
  is_public: bool('images.is_public'),
  deprecated: bool('images.deprecated'),
  vendor: sqliteQuote('images.vendor'),
  expiry: sqliteQuote('images.expiry'),
  eol: sqliteQuote('images.eol'),
  status: sqliteQuote('images.status'),
  capabilities: 'images.capabilities',
}

// concat() builds the text in one allocation, where each `||` copies the text so far.
const sqliteObject = (order: Array<keyof Fields>) => `concat(${parts(sqliteFields, order).join(', ')})`
const sqliteImageJson = sql<string>`${sql.raw(
  `case when images.is_public then ${sqliteObject(PUBLIC_ORDER)} else ${sqliteObject(PRIVATE_ORDER)} end`,
)}`

const pgText = (column: string) => `coalesce(to_json(${column})::text, 'null')`
const pgTimestamp = (column: string) => pgText(`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS')`)
const postgresFields: Fields = {
  id: `to_json(coalesce(images.slug, 'private/' || images.id))::text`,
  label: pgText('images.label'),
  description: pgText('images.description'),
  created: pgTimestamp('images.created'),
  updated: pgTimestamp('images.updated'),
  size: 'images.size::text',
  created_by: pgText('images.created_by'),
  type: pgText('images.type'),
  is_public: bool('images.is_public'),
  deprecated: bool('images.deprecated'),
  vendor: pgText('images.vendor'),
  expiry: pgTimestamp('images.expiry'),
  eol: pgTimestamp('images.eol'),
  status: pgText('images.status'),
  capabilities: 'images.capabilities',
}

const postgresObject = (order: Array<keyof Fields>) => parts(postgresFields, order).join(' || ')
const postgresImageJson = sql<string>`${sql.raw(
  `case when images.is_public then ${postgresObject(PUBLIC_ORDER)} else ${postgresObject(PRIVATE_ORDER)} end`,
)}`
