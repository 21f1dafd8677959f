import { ErrorCollector, notFound } from '../../../common/errors.ts'
import { mapPage, type PageRequest } from '../../../common/pagination.ts'
import type { PageResult } from '../../../common/schemas.ts'
import { type Clock, nowTimestamp, parseTimestamp } from '../../../common/time.ts'
import { compileFilter, type FilterSpec } from '../../../common/x-filter.ts'
import type { Db } from '../../../db/connect.ts'
import { dialectOf } from '../../../db/dialects/dialect.ts'
import { inTransaction } from '../../../db/transaction.ts'
import type { Actor } from '../../auth/actor.ts'
import { issueToken } from '../../auth/issue-token.ts'
import { formatScopes, isWithin, parseScopes, type ScopeSet } from '../../auth/scopes.ts'
import type { TokenRow } from '../../auth/tokens.table.ts'
import { type EventEntity, recordEvent } from '../../events/events.repository.ts'
import { profileEvent } from '../profile-events.ts'
import * as repo from './tokens.repository.ts'
import type { CreateTokenBody, Token } from './tokens.schemas.ts'

/** api-facts 2.2: tokens filter (and order) on `created` and `label`. */
export const TOKEN_FILTERS: FilterSpec = {
  created: { column: 'tokens.created', type: 'timestamp' },
  label: { column: 'tokens.label', type: 'string' },
}

export function toToken(row: TokenRow, secret?: string): Token {
  return {
    id: row.id,
    scopes: row.scopes,
    created: row.created,
    label: row.label,
    token: secret ?? row.token_prefix,
    expiry: row.expiry,
  }
}

const tokenEntity = (row: TokenRow): EventEntity => ({
  type: 'token',
  id: row.id,
  label: row.label,
  url: `/v4/profile/tokens/${row.id}`,
})

async function getRow(db: Db, clock: Clock, actor: Actor, id: number): Promise<TokenRow> {
  const row = await repo.findToken(db, actor.user.id, id, nowTimestamp(clock))
  if (row === undefined) throw notFound()
  return row
}

export async function listTokens(
  db: Db,
  clock: Clock,
  actor: Actor,
  page: PageRequest,
  filter: string | undefined,
): Promise<PageResult<Token>> {
  const compiled = compileFilter(filter, TOKEN_FILTERS, dialectOf(db))
  const order = [
    ...(compiled.order ? [compiled.order] : []),
    repo.orderById(compiled.order?.direction ?? 'asc'),
  ]
  const rows = await repo.listTokens(db, actor.user.id, nowTimestamp(clock), page, compiled.where, order)
  return mapPage(rows, (row) => toToken(row))
}

export async function getToken(db: Db, clock: Clock, actor: Actor, id: number): Promise<Token> {
  return toToken(await getRow(db, clock, actor, id))
}

/**
 * The new token's scopes may not exceed the acting token's; omitted or `*` means the acting
 * token's own. Expiry null or omitted: never expires (Decisions, 10).
 */
export async function createToken(db: Db, clock: Clock, actor: Actor, body: CreateTokenBody): Promise<Token> {
  const now = nowTimestamp(clock)
  const errors = new ErrorCollector()
  let scopes: ScopeSet = actor.scopes
  if (body.scopes !== undefined && body.scopes.trim() !== '*') {
    const requested = parseScopes(body.scopes)
    if (requested === undefined) {
      errors.add(
        'scopes must be * or space-separated <category>:read_only or <category>:read_write scopes',
        'scopes',
      )
    } else if (!isWithin(requested, actor.scopes)) {
      errors.add('scopes cannot exceed the scopes of the token making this request', 'scopes')
    } else {
      scopes = requested
    }
  }
  let expiry: string | null = null
  if (body.expiry !== undefined && body.expiry !== null) {
    const parsed = parseTimestamp(body.expiry)
    if (parsed === undefined) errors.add('expiry must be a date-time such as 2030-01-01T00:00:00', 'expiry')
    else if (parsed <= now) errors.add('expiry must be in the future', 'expiry')
    else expiry = parsed
  }
  errors.throwIfAny()
  return inTransaction(db, async (trx) => {
    const { row, secret } = await issueToken(trx, {
      userId: actor.user.id,
      label: body.label,
      scopes: formatScopes(scopes),
      created: now,
      expiry,
    })
    await recordEvent(trx, profileEvent(actor, 'token_create', tokenEntity(row), now))
    return toToken(row, secret)
  })
}

/** Only the label can change; scopes and expiry are fixed at creation. */
export async function updateToken(
  db: Db,
  clock: Clock,
  actor: Actor,
  id: number,
  body: { label?: string },
): Promise<Token> {
  return inTransaction(db, async (trx) => {
    const row = await getRow(trx, clock, actor, id)
    if (body.label === undefined) return toToken(row)
    const updated = await repo.updateTokenLabel(trx, row.id, body.label)
    await recordEvent(trx, profileEvent(actor, 'token_update', tokenEntity(updated), nowTimestamp(clock)))
    return toToken(updated)
  })
}

/**
 * Revokes a token (the acting one included). Authentication reads the token row on every
 * request, so every process refuses it from the next request on.
 */
export async function revokeToken(db: Db, clock: Clock, actor: Actor, id: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    const row = await getRow(trx, clock, actor, id)
    await repo.deleteToken(trx, row.id)
    await recordEvent(trx, profileEvent(actor, 'token_delete', tokenEntity(row), nowTimestamp(clock)))
  })
}
