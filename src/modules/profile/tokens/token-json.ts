import { type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../../../db/dialects/dialect.ts'

/**
 * A personal access token's wire JSON (TokenSchema, keys in the API's order, `token` as its
 * first 16 characters), rendered by the database from the `tokens` row of the query it is
 * selected in, so that a page of tokens is one string instead of rows mapped to objects and
 * serialized again. Text goes through the engine's own JSON quoting (`json_quote`, `to_json`),
 * which escapes what JSON.stringify escapes (SQLite's `json_quote(null)` is `null`); timestamps in
 * the API's format. A test holds the result equal to JSON.stringify of the wire object.
 */
export function tokenJson(dialect: SqlDialect): RawBuilder<string> {
  return dialect === 'postgres' ? postgresTokenJson : sqliteTokenJson
}

// concat() builds the text in one allocation, where each `||` copies the text so far.
const sqliteTokenJson = sql<string>`concat('{"id":', tokens.id, ',"scopes":', json_quote(tokens.scopes), ',"created":', json_quote(tokens.created), ',"label":', json_quote(tokens.label), ',"token":', json_quote(tokens.token_prefix), ',"expiry":', json_quote(tokens.expiry), '}')`

const timestamp = (column: string) => `to_json(to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS'))::text`

const postgresTokenJson = sql<string>`${sql.raw(
  `'{"id":' || tokens.id || ',"scopes":' || to_json(tokens.scopes)::text || ',"created":' || ${timestamp('tokens.created')} || ',"label":' || to_json(tokens.label)::text || ',"token":' || to_json(tokens.token_prefix)::text || ',"expiry":' || coalesce(${timestamp('tokens.expiry')}, 'null') || '}'`,
)}`
