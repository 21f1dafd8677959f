import { type RawBuilder, sql } from 'kysely'
import type { SqlDialect } from '../../db/dialects/dialect.ts'

/**
 * One event's wire JSON, assembled by the list query: the head (`id`, `created`, `seen`, `read`)
 * from its columns, then the stored `json_tail` (see event-wire.ts). Reading five columns of a
 * row instead of two dozen, and no mapping or serialization per row, is what keeps the events
 * page (the hottest list of the API) cheap. A property test holds it equal to `toEvent`.
 */
export function eventJson(dialect: SqlDialect): RawBuilder<string> {
  return dialect === 'postgres' ? postgresEventJson : sqliteEventJson
}

// concat() builds the text in one allocation, where each `||` copies the text so far: a third of
// the page statement's time.
const sqliteEventJson = sql<string>`concat('{"id":', events.id, ',"created":"', events.created, '","seen":', (case when events.seen then 'true' else 'false' end), ',"read":', (case when events.read then 'true' else 'false' end), ',', events.json_tail)`

const postgresEventJson = sql<string>`'{"id":' || events.id || ',"created":"' || to_char(events.created, 'YYYY-MM-DD"T"HH24:MI:SS') || '","seen":' || events.seen::text || ',"read":' || events.read::text || ',' || events.json_tail`
