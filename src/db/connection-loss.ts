/**
 * Errors that mean the database connection was lost (a failover, a restart, an administrator
 * terminating backends), not that the query was wrong: the request may be retried shortly, and the
 * pool replaces the connection.
 */
const LOST_CONNECTION_CODES = new Set([
  '57P01', // admin_shutdown: pg_terminate_backend, a fast shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: starting up or shutting down
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08006', // connection_failure
])

/** Socket errors count only when a system call raised them (the driver's own socket). */
const LOST_SOCKET_CODES = new Set(['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT'])

const LOST_CONNECTION_MESSAGES = [
  'Connection terminated unexpectedly',
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
]

export function isConnectionLost(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code, syscall } = e as { code?: unknown; syscall?: unknown }
    if (typeof code === 'string' && LOST_CONNECTION_CODES.has(code)) return true
    if (typeof code === 'string' && typeof syscall === 'string' && LOST_SOCKET_CODES.has(code)) return true
    if (LOST_CONNECTION_MESSAGES.includes(e.message)) return true
  }
  return false
}

/** PostgreSQL rolled the transaction back to resolve a conflict between writers; it may run again. */
const TRANSIENT_CONFLICT_CODES = new Set([
  '40P01', // deadlock_detected
  '40001', // serialization_failure
])

export function isTransientConflict(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const { code } = e as { code?: unknown }
    if (typeof code === 'string' && TRANSIENT_CONFLICT_CODES.has(code)) return true
  }
  return false
}
