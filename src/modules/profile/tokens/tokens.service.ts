import { inContextTransaction, type RequestContext } from '../../../common/context.ts'
import { ErrorCollector, foundOrNotFound, notFound, scopeDenied } from '../../../common/errors.ts'
import type { ListQuery } from '../../../common/pagination.ts'
import { pageJson } from '../../../common/rendered-json.ts'
import { pageKey, renderedPagesOf } from '../../../common/rendered-page-cache.ts'
import { nowTimestamp, parseTimestamp } from '../../../common/time.ts'
import { issueToken } from '../../auth/issue-token.ts'
import { formatScopes, isWithin, parseScopes, type ScopeSet } from '../../auth/scopes.ts'
import type { TokenRow } from '../../auth/tokens.table.ts'
import type { EventAction } from '../../events/event-builder.ts'
import type { EventEntity } from '../../events/event-types.ts'
import { recordEvent } from '../../events/events.service.ts'
import { profileEvent } from '../profile-events.ts'
import * as repo from './tokens.repository.ts'
import type { CreateTokenBody, Token } from './tokens.schemas.ts'

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

const recordTokenEvent = (ctx: RequestContext, action: EventAction, row: TokenRow, created: string) =>
  recordEvent(ctx.db, profileEvent(ctx.actor, action, tokenEntity(row), created))

/** A working personal access token of the caller; anyone else's, or an expired one, is not found. */
async function accessToken(ctx: RequestContext, { tokenId }: { tokenId: number }): Promise<TokenRow> {
  return foundOrNotFound(await repo.findToken(ctx.db, ctx.actor.user.id, tokenId, nowTimestamp(ctx.clock)))
}

/** A page of the caller's working tokens as JSON text (see token-json.ts). */
export async function listTokensJson(ctx: RequestContext, query: ListQuery): Promise<string> {
  const { db, clock, actor } = ctx
  return pageJson(await repo.listTokenJson(db, actor.user.id, nowTimestamp(clock), query.filter, query.page))
}

/** Moved by every change to a token (its triggers). */
const TOKENS_COUNTER = 'tokens'

/**
 * The page's bytes, from the pages kept (common/rendered-page-cache.ts) while no token has changed
 * and none of the caller's has expired since it was rendered; else rendered now, and kept.
 */
export async function listTokensPage(
  ctx: RequestContext,
  query: ListQuery,
  counters: Promise<ReadonlyMap<string, number>>,
): Promise<Buffer> {
  const { db, clock, actor } = ctx
  const now = nowTimestamp(clock)
  const stamp = (await counters).get(TOKENS_COUNTER)
  if (stamp === undefined) return Buffer.from(await listTokensJson(ctx, query))
  const key = pageKey(actor.user.id, query)
  const pages = renderedPagesOf(db, TOKENS_COUNTER)
  const kept = pages.get(key, stamp, now)
  if (kept !== undefined) return kept
  const text = pageJson(await repo.listTokenJson(db, actor.user.id, now, query.filter, query.page))
  const until = await repo.nextTokenExpiry(db, actor.user.id, now)
  return pages.set(key, text, { stamp, from: now, until })
}

export async function getToken(ctx: RequestContext, ids: { tokenId: number }): Promise<Token> {
  return toToken(await accessToken(ctx, ids))
}

/**
 * The new token's scopes may not exceed the acting token's; omitted or `*` means the acting
 * token's own. Expiry null or omitted: never expires (docs/decisions.md#token-expiry), but a new
 * token never outlives the one creating it, so a short-lived token cannot mint a lasting one.
 * Only a personal access token may create one: an OAuth app's token would otherwise leave behind
 * a token that survives the app's revocation (docs/decisions.md#personal-access-tokens-from-other-tokens).
 */
export async function createToken(ctx: RequestContext, body: CreateTokenBody): Promise<Token> {
  const { actor } = ctx
  if (actor.authorizedAppId !== null) throw scopeDenied()
  const now = nowTimestamp(ctx.clock)
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
  if (actor.tokenExpiry !== null && (expiry === null || expiry > actor.tokenExpiry))
    expiry = actor.tokenExpiry
  errors.throwIfAny()
  return inContextTransaction(ctx, async (tx) => {
    const { row, secret } = await issueToken(tx.db, {
      userId: actor.user.id,
      label: body.label,
      scopes: formatScopes(scopes),
      created: now,
      expiry,
    })
    await recordTokenEvent(tx, 'token_create', row, now)
    return toToken(row, secret)
  })
}

/** Only the label can change; scopes and expiry are fixed at creation. */
export async function updateToken(
  ctx: RequestContext,
  ids: { tokenId: number },
  body: { label?: string },
): Promise<Token> {
  return inContextTransaction(ctx, async (tx) => {
    const row = await accessToken(tx, ids)
    if (body.label === undefined) return toToken(row)
    const updated = await repo.updateTokenLabel(tx.db, row.id, body.label)
    await recordTokenEvent(tx, 'token_update', updated, nowTimestamp(tx.clock))
    return toToken(updated)
  })
}

/**
 * Revokes a token (the acting one included). Authentication reads the token row on every
 * request, so every process refuses it from the next request on.
 */
export async function revokeToken(ctx: RequestContext, ids: { tokenId: number }): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessToken(tx, ids)
    if (!(await repo.deleteToken(tx.db, row.id))) throw notFound()
    await recordTokenEvent(tx, 'token_delete', row, nowTimestamp(tx.clock))
  })
}
