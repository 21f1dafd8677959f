import type pg from 'pg'
import { lazyModule } from '../../startup/lazy-module.ts'

/** The driver, loaded by the first PostgreSQL pool: a server on SQLite never loads it. */
const loadPg = lazyModule<typeof pg>('pg')

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
    return loadPg().types.getTypeParser(oid, format)
  },
}

export interface PostgresOptions {
  connectionString: string
  /** Schema to use instead of `public` (test runs use one schema each). */
  schema?: string
  max?: number
}

export function createPostgresPool(options: PostgresOptions): pg.Pool {
  const pool = new (loadPg().Pool)({
    connectionString: options.connectionString,
    max: options.max ?? 10,
    types,
    // Names the connections in pg_stat_activity (a URL's own application_name wins).
    fallback_application_name: 'cloudplane',
    // UTC for the session: `timestamp` columns then hold UTC wall time, whatever the server's zone.
    options: `-c TimeZone=UTC${options.schema ? ` -c search_path=${options.schema}` : ''}`,
  })
  // A connection cut by the server (a failover, a restart, pg_terminate_backend) must not crash the
  // process. An idle client's error reaches the pool, which drops it; a checked-out client's
  // error would reach no listener and be thrown: its running query fails on its own (the request
  // answers 503, see connection-loss.ts) and the pool drops the client when it is released.
  pool.on('error', () => {})
  pool.on('connect', (client) => {
    client.on('error', () => {})
  })
  return pool
}
