/**
 * The one error type of the API. Services throw it; the error handler in plugins/errors.ts turns it
 * into the wire envelope `{"errors":[{"reason", "field"?}]}`.
 */
export interface ErrorItem {
  reason: string
  field?: string
}

export type ErrorCode =
  | 'bad_request'
  | 'invalid_token'
  | 'unauthorized_scope'
  | 'forbidden'
  | 'not_found'
  | 'method_not_allowed'
  | 'conflict'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'too_many_requests'
  | 'unavailable'
  | 'internal'

const STATUS: Record<ErrorCode, number> = {
  bad_request: 400,
  invalid_token: 401,
  unauthorized_scope: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  too_many_requests: 429,
  unavailable: 503,
  internal: 500,
}

export class ApiError extends Error {
  readonly code: ErrorCode
  readonly status: number
  readonly errors: ErrorItem[]

  constructor(code: ErrorCode, errors: ErrorItem[]) {
    super(errors.map((e) => (e.field ? `${e.field}: ${e.reason}` : e.reason)).join('; '))
    this.name = 'ApiError'
    this.code = code
    this.status = STATUS[code]
    this.errors = errors
  }
}

/** A 429 that says how long to wait: the error handler sends it as `Retry-After`. */
export class TooManyRequests extends ApiError {
  readonly retryAfterSeconds: number

  constructor(reason: string, retryAfterSeconds: number, field?: string) {
    super('too_many_requests', [field === undefined ? { reason } : { reason, field }])
    this.retryAfterSeconds = Math.max(1, Math.ceil(retryAfterSeconds))
  }
}

export const badRequest = (reason: string, field?: string): ApiError =>
  new ApiError('bad_request', [field === undefined ? { reason } : { reason, field }])

/** Several validation failures reported together, as the real API does. */
export const validationFailed = (errors: ErrorItem[]): ApiError => new ApiError('bad_request', errors)

export const notFound = (): ApiError => new ApiError('not_found', [{ reason: 'Not found' }])

/** `row` when there is one, else the 404 of an entity the caller's account does not have. */
export function foundOrNotFound<T>(row: T | undefined): T {
  if (row === undefined) throw notFound()
  return row
}

export const invalidToken = (): ApiError => new ApiError('invalid_token', [{ reason: 'Invalid Token' }])

export const scopeDenied = (): ApiError =>
  new ApiError('unauthorized_scope', [{ reason: 'Your OAuth token is not authorized to use this endpoint.' }])

export const forbidden = (): ApiError => new ApiError('forbidden', [{ reason: 'Unauthorized' }])

/**
 * Collects rule violations so a service can report all of them at once, then throw.
 */
export class ErrorCollector {
  readonly errors: ErrorItem[] = []

  add(reason: string, field?: string): void {
    this.errors.push(field === undefined ? { reason } : { reason, field })
  }

  get empty(): boolean {
    return this.errors.length === 0
  }

  throwIfAny(): void {
    if (this.errors.length > 0) throw validationFailed(this.errors)
  }
}
