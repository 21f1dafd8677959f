import { type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../../../db/dialects/dialect.ts'

/**
 * A personal access token's wire JSON (TokenSchema, keys in the API's order, `token` as its
 * first 16 characters), rendered by the database from the `tokens` row of the query it is
 * selected in, so that a page of tokens is one string instead of rows mapped to objects and
 * serialized again. Text goes through the engine's own JSON quoting (`json_object`, `to_json`),
 * which escapes what JSON.stringify escapes (SQLite writes a NULL column as `null`); timestamps in
 * the API's format. A test holds the result equal to JSON.stringify of the wire object.
 */
export function tokenJson(dialect: SqlDialect): RawBuilder<string> {
  return dialect === 'postgres' ? postgresTokenJson : sqliteTokenJson
}

// json_object() writes the keys in the order given and quotes text as json_quote does; on a page of
// 100 it took about a tenth less time than concat() of json_quote() parts (min of many runs).
const sqliteTokenJson = sql<string>`json_object('id', tokens.id, 'scopes', tokens.scopes, 'created', tokens.created, 'label', tokens.label, 'token', tokens.token_prefix, 'expiry', tokens.expiry)`

const timestamp = (column: string) => `to_json(to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS'))::text`

const postgresTokenJson = sql<string>`${sql.raw(
  `'{"id":' || tokens.id || ',"scopes":' || to_json(tokens.scopes)::text || ',"created":' || ${timestamp('tokens.created')} || ',"label":' || to_json(tokens.label)::text || ',"token":' || to_json(tokens.token_prefix)::text || ',"expiry":' || coalesce(${timestamp('tokens.expiry')}, 'null') || '}'`,
)}`
