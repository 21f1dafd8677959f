import { randomUUID } from '../../common/random.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import * as repo from './accounts.repository.ts'
import type { AccountRow } from './accounts.table.ts'

/** A new account without users; `createAccountWithOwner` (users) adds its first one in the same transaction. */
export async function createAccount(db: Db, clock: Clock): Promise<AccountRow> {
  return repo.insertAccount(db, { uuid: randomUUID().toUpperCase(), created: nowTimestamp(clock) })
}

/**
 * Holds the caller's account until the transaction ends, so a check of an account-wide invariant
 * (a quota, "keep one unrestricted user") cannot be raced by another request of the account.
 */
export async function lockAccount(ctx: {
  readonly db: Db
  readonly actor: { readonly accountId: number }
}): Promise<void> {
  await repo.lockAccount(ctx.db, ctx.actor.accountId)
}
