import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { ErrorCollector, notFound } from '../../common/errors.ts'
import { type ListQuery, mapPage } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { recordEvent } from '../events/events.service.ts'
import { assertUnrestricted } from '../grants/authorize.ts'
import { newClientId, newClientSecret, REDACTED } from './client-secret.ts'
import { type OAuthClientAction, oauthClientEvent } from './oauth-client-events.ts'
import * as repo from './oauth-clients.repository.ts'
import type { CreateOAuthClientBody, OAuthClient, UpdateOAuthClientBody } from './oauth-clients.schemas.ts'
import type { OAuthClientRow } from './oauth-clients.table.ts'

export { clientSecretMatches } from './client-secret.ts'
export type { OAuthClientRow } from './oauth-clients.table.ts'

export interface OAuthClientIds {
  clientId: string
}

export function toOAuthClient(row: OAuthClientRow, secret = REDACTED): OAuthClient {
  return {
    id: row.id,
    label: row.label,
    public: row.public,
    redirect_uri: row.redirect_uri,
    secret,
    status: row.status as OAuthClient['status'],
    thumbnail_url: row.thumbnail_url,
  }
}

/**
 * A redirect URI is an absolute http(s) URL without a fragment (RFC 6749 §3.1.2); plain http is
 * accepted, as the real service does, so apps on localhost can be tested.
 */
function checkRedirectUri(errors: ErrorCollector, uri: string | undefined): void {
  if (uri === undefined) return
  let parsed: URL | undefined
  try {
    parsed = new URL(uri)
  } catch {
    parsed = undefined
  }
  if (parsed === undefined || !['http:', 'https:'].includes(parsed.protocol) || parsed.hash !== '') {
    errors.add('Must be an absolute http or https URL without a fragment', 'redirect_uri')
  }
}

/**
 * The one access path to a client: in the actor's account (else 404), and only for unrestricted
 * users, who manage the account (else 403). A change locks it until its transaction ends, so
 * changes of one client take turns: a delete at once with another delete or an update leaves the
 * others a 404, not a second answer about a client that is gone.
 */
export async function accessOAuthClient(
  ctx: RequestContext,
  ids: OAuthClientIds,
  change = false,
): Promise<OAuthClientRow> {
  const row = await repo.findAccountClient(ctx.db, ctx.actor.accountId, ids.clientId, { lock: change })
  if (row === undefined) throw notFound()
  assertUnrestricted(ctx.actor)
  return row
}

export async function listOAuthClients(
  ctx: RequestContext,
  query: ListQuery,
): Promise<PageResult<OAuthClient>> {
  assertUnrestricted(ctx.actor)
  const page = await repo.listAccountClients(ctx.db, ctx.actor.accountId, query)
  return mapPage(page, (row) => toOAuthClient(row))
}

export async function getOAuthClient(ctx: RequestContext, ids: OAuthClientIds): Promise<OAuthClient> {
  return toOAuthClient(await accessOAuthClient(ctx, ids))
}

async function record(ctx: RequestContext, action: OAuthClientAction, row: OAuthClientRow): Promise<void> {
  await recordEvent(ctx.db, oauthClientEvent(ctx.actor, action, row, nowTimestamp(ctx.clock)))
}

/** Registers a client; its secret is in this answer only. */
export async function createOAuthClient(
  ctx: RequestContext,
  body: CreateOAuthClientBody,
): Promise<OAuthClient> {
  assertUnrestricted(ctx.actor)
  const errors = new ErrorCollector()
  checkRedirectUri(errors, body.redirect_uri)
  errors.throwIfAny()
  const { secret, hash } = newClientSecret()
  return inContextTransaction(ctx, async (tx) => {
    const row = await repo.insertClient(tx.db, {
      id: newClientId(),
      account_id: tx.actor.accountId,
      label: body.label,
      redirect_uri: body.redirect_uri,
      public: body.public ?? false,
      secret_hash: hash,
      status: 'active',
      thumbnail_url: null,
      created: nowTimestamp(tx.clock),
    })
    await record(tx, 'oauth_client_create', row)
    return toOAuthClient(row, secret)
  })
}

export async function updateOAuthClient(
  ctx: RequestContext,
  ids: OAuthClientIds,
  body: UpdateOAuthClientBody,
): Promise<OAuthClient> {
  const errors = new ErrorCollector()
  checkRedirectUri(errors, body.redirect_uri)
  return inContextTransaction(ctx, async (tx) => {
    const current = await accessOAuthClient(tx, ids, true)
    errors.throwIfAny()
    const row = await repo.updateClient(tx.db, current.id, {
      ...(body.label !== undefined && { label: body.label }),
      ...(body.redirect_uri !== undefined && { redirect_uri: body.redirect_uri }),
      ...(body.public !== undefined && { public: body.public }),
    })
    await record(tx, 'oauth_client_update', row)
    return toOAuthClient(row)
  })
}

/** Deletes the client: its secret is refused and every token users gave it stops working. */
export async function deleteOAuthClient(ctx: RequestContext, ids: OAuthClientIds): Promise<void> {
  await inContextTransaction(ctx, async (tx) => {
    const row = await accessOAuthClient(tx, ids, true)
    await repo.deleteClient(tx.db, row.id)
    await record(tx, 'oauth_client_delete', row)
  })
}

/** A new secret, shown in this answer only; the old one is refused from now on. */
export async function resetOAuthClientSecret(ctx: RequestContext, ids: OAuthClientIds): Promise<OAuthClient> {
  const { secret, hash } = newClientSecret()
  return inContextTransaction(ctx, async (tx) => {
    const current = await accessOAuthClient(tx, ids, true)
    const row = await repo.updateClient(tx.db, current.id, { secret_hash: hash })
    await record(tx, 'oauth_client_secret_reset', row)
    return toOAuthClient(row, secret)
  })
}

/** For the login service: an active client of any account, by its public id. */
export async function findActiveOAuthClient(db: Db, clientId: string): Promise<OAuthClientRow | undefined> {
  const row = await repo.findClient(db, clientId)
  return row?.status === 'active' ? row : undefined
}
