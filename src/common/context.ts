import type { Db } from '../db/connect.ts'
import { inTransaction } from '../db/transaction.ts'
import type { Actor } from '../modules/auth/actor.ts'
import type { Clock } from './time.ts'

/**
 * What a service needs to serve one request: the database (or the transaction it runs in), the
 * server's clock and the caller. Routes build it once with `contextOf(request)`; services pass it
 * on whole, so a call reads as what it does instead of as a row of positional arguments.
 */
export interface RequestContext {
  readonly db: Db
  readonly clock: Clock
  readonly actor: Actor
}

/** The same, for public routes that have no caller (regions, the public image catalogue). */
export interface PublicContext {
  readonly db: Db
  readonly clock: Clock
  readonly actor?: Actor | null
}

/**
 * Runs `work` in one transaction with a context bound to it, or in the caller's transaction when
 * the context already runs in one, so services compose into a larger write unchanged.
 */
export function inContextTransaction<C extends { readonly db: Db }, T>(
  ctx: C,
  work: (trx: C) => Promise<T>,
): Promise<T> {
  return inTransaction(ctx.db, (trx) => work(trx === ctx.db ? ctx : { ...ctx, db: trx }))
}
