import { randomBytes, randomUUID } from 'node:crypto'
import { badRequest } from '../../common/errors.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { isUniqueViolation } from '../../db/dialects/dialect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { ensureGlobalGrants } from '../grants/grants.repository.ts'
import { findUserByUsername, insertUser } from '../users/users.repository.ts'
import type { UserRow } from '../users/users.table.ts'
import { insertAccount } from './accounts.repository.ts'
import type { AccountRow } from './accounts.table.ts'

export const referralCode = (): string => randomBytes(20).toString('hex')

/** Adds a user to an account; restricted users start with no grants at all. */
export async function addUser(
  db: Db,
  clock: Clock,
  accountId: number,
  user: { username: string; email: string; restricted: boolean },
): Promise<UserRow> {
  if ((await findUserByUsername(db, user.username)) !== undefined) throw usernameTaken()
  try {
    const row = await insertUser(db, {
      account_id: accountId,
      username: user.username,
      email: user.email,
      restricted: user.restricted,
      authorized_keys: null,
      verified_phone_number: null,
      referral_code: referralCode(),
      created: nowTimestamp(clock),
    })
    if (user.restricted) await ensureGlobalGrants(db, row.id)
    return row
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken()
    throw error
  }
}

export const usernameTaken = () => badRequest('Username taken', 'username')

/** A new account with its first, unrestricted user (CLI `account create` and the first start). */
export async function createAccountWithOwner(
  db: Db,
  clock: Clock,
  owner: { username: string; email: string },
): Promise<{ account: AccountRow; user: UserRow }> {
  return inTransaction(db, async (trx) => {
    const account = await insertAccount(trx, {
      uuid: randomUUID().toUpperCase(),
      created: nowTimestamp(clock),
    })
    const user = await addUser(trx, clock, account.id, { ...owner, restricted: false })
    return { account, user }
  })
}
