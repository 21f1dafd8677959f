import pg from 'pg'

/**
 * Type parsing set once for the pool, so PostgreSQL returns what SQLite returns: numbers for
 * bigint ids and counts, and timestamps as the API's own `YYYY-MM-DDTHH:MM:SS` strings.
 */
const INT8 = 20
const NUMERIC = 1700
const TIMESTAMP = 1114
const TIMESTAMPTZ = 1184

const parseTimestamp = (value: string): string => value.slice(0, 19).replace(' ', 'T')

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value)
    if (oid === TIMESTAMP || oid === TIMESTAMPTZ) return parseTimestamp
    return pg.types.getTypeParser(oid, format)
  },
}

export interface PostgresOptions {
  connectionString: string
  /** Schema to use instead of `public` (test runs use one schema each). */
  schema?: string
  max?: number
}

export function createPostgresPool(options: PostgresOptions): pg.Pool {
  const pool = new pg.Pool({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types,
    // UTC for the session: `timestamp` columns then hold UTC wall time, whatever the server's zone.
    options: `-c TimeZone=UTC${options.schema ? ` -c search_path=${options.schema}` : ''}`,
  })
  // An idle client that loses its connection must not crash the process; the pool replaces it.
  pool.on('error', () => {})
  return pool
}
