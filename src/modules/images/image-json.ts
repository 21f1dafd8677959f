import { type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../../db/dialects/dialect.ts'

/**
 * An image's wire JSON (ImageSchema: a public image's keys in their recorded order, a private
 * image's in theirs), rendered by the database from the `images` row of the query it is selected
 * in, so that a page of images is one string instead of rows mapped to objects and serialized
 * again through a union schema. Text goes through the engine's own JSON quoting (`json_quote`,
 * `to_json`), which escapes what JSON.stringify escapes (SQLite's `json_quote(null)` is `null`);
 * timestamps in the API's format; `capabilities` and `tags` are stored as JSON.stringify wrote
 * them. With `laterFields`, the fields of later versions too (images.schemas.ts). A test holds the
 * result equal to what the API serializes.
 */
export function imageJson(dialect: SqlDialect, laterFields = false): RawBuilder<string> {
  return (dialect === 'postgres' ? postgresImageJson : sqliteImageJson)[laterFields ? 1 : 0]
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
  | 'capabilities'
  | 'tags'
  | 'total_size'
  | 'regions',
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

/** Each order with the fields of later versions where the real service sends them. */
const LATER_PRIVATE_ORDER: Array<keyof Fields> = [
  ...PRIVATE_ORDER.slice(0, PRIVATE_ORDER.indexOf('type') + 1),
  'tags',
  ...PRIVATE_ORDER.slice(PRIVATE_ORDER.indexOf('type') + 1),
  'total_size',
  'regions',
]
const LATER_PUBLIC_ORDER: Array<keyof Fields> = [...PUBLIC_ORDER, 'tags', 'total_size', 'regions']

const bool = (column: string) => `case when ${column} then 'true' else 'false' end`

/** The image's JSON without and with the fields of later versions, given how a dialect builds an object. */
const renderings = (
  object: (order: Array<keyof Fields>) => string,
): [RawBuilder<string>, RawBuilder<string>] => {
  const rendering = (publicOrder: Array<keyof Fields>, privateOrder: Array<keyof Fields>) =>
    sql<string>`${sql.raw(`case when images.is_public then ${object(publicOrder)} else ${object(privateOrder)} end`)}`
  return [rendering(PUBLIC_ORDER, PRIVATE_ORDER), rendering(LATER_PUBLIC_ORDER, LATER_PRIVATE_ORDER)]
}

/** `regions`: the one region a private image is stored in, with its status there; none for public ones. */
const regions = (quote: (text: string) => string) =>
  `case when images.region is null then '[]' else '[{"region":' || ${quote('images.region')} || ',"status":' || case images.status when 'pending_upload' then '"pending"' else ${quote('images.status')} end || '}]' end`

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
  tags: 'images.tags',
  total_size: 'images.size',
  regions: regions(sqliteQuote),
}

// concat() builds the text in one allocation, where each `||` copies the text so far.
const sqliteObject = (order: Array<keyof Fields>) => `concat(${parts(sqliteFields, order).join(', ')})`
const sqliteImageJson = renderings(sqliteObject)

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
  tags: 'images.tags',
  total_size: 'images.size::text',
  regions: regions((column) => `to_json(${column})::text`),
}

const postgresObject = (order: Array<keyof Fields>) => parts(postgresFields, order).join(' || ')
const postgresImageJson = renderings(postgresObject)
