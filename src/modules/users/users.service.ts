import { inContextTransaction, type RequestContext } from '../../common/context.ts'
import { badRequest, forbidden, invalidToken, notFound } from '../../common/errors.ts'
import type { ListQuery } from '../../common/pagination.ts'
import { randomBytes } from '../../common/random.ts'
import type { PageResult } from '../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { isUniqueViolation } from '../../db/dialects/dialect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { createAccount, lockAccount } from '../accounts/accounts.service.ts'
import type { AccountRow } from '../accounts/accounts.table.ts'
import { buildEvent, type EventAction } from '../events/event-builder.ts'
import type { EventEntity } from '../events/event-types.ts'
import { recordEvent } from '../events/events.service.ts'
import { assertUnrestricted } from '../grants/authorize.ts'
import { deleteAllGrants, ensureGlobalGrants } from '../grants/grants.service.ts'
import { findLastLogins, type LastLogin, listSshKeyLabels } from './user-profile-data.repository.ts'
import * as repo from './users.repository.ts'
import type { User } from './users.schemas.ts'
import type { UserRow, UserRowUpdate } from './users.table.ts'

export const referralCode = (): string => randomBytes(20).toString('hex')

export const usernameTaken = () => badRequest('Username taken', 'username')

/** What the user row does not hold: SSH key labels and the latest login attempt (profile tables). */
export interface UserProfileData {
  sshKeys: string[]
  lastLogin: LastLogin | undefined
}

export function toUser(row: UserRow, data?: UserProfileData): User {
  return {
    username: row.username,
    email: row.email,
    restricted: row.restricted,
    ssh_keys: data?.sshKeys ?? [],
    tfa_enabled: row.two_factor_auth,
    verified_phone_number: row.verified_phone_number,
    password_created: null,
    last_login: data?.lastLogin
      ? { login_datetime: data.lastLogin.datetime, status: data.lastLogin.status }
      : null,
  }
}

/** Users with their profile data, two queries for any number of users (no query per user). */
async function toUsers(db: Db, rows: UserRow[]): Promise<User[]> {
  const ids = rows.map((r) => r.id)
  const [sshKeys, lastLogins] = await Promise.all([listSshKeyLabels(db, ids), findLastLogins(db, ids)])
  return rows.map((row) =>
    toUser(row, { sshKeys: sshKeys.get(row.id) ?? [], lastLogin: lastLogins.get(row.id) }),
  )
}

async function toFullUser(db: Db, row: UserRow): Promise<User> {
  return (await toUsers(db, [row]))[0] as User
}

/**
 * A user of the caller's account, for the account's administrators: 403 for a restricted caller,
 * then 404 for a user the account does not have (another account's users are not found).
 */
export async function accessUser(ctx: RequestContext, { username }: { username: string }): Promise<UserRow> {
  assertUnrestricted(ctx.actor)
  const row = await repo.findAccountUser(ctx.db, ctx.actor.accountId, username)
  if (row === undefined) throw notFound()
  return row
}

/**
 * A user of the caller's account to change, under the account's lock: changes of users and of
 * their grants take turns (a grants change racing a delete or a promotion wrote grants for a user
 * gone or no longer restricted), and the acting administrator is checked again under it.
 */
export async function lockUserToChange(ctx: RequestContext, ids: { username: string }): Promise<UserRow> {
  await lockAccount(ctx)
  await assertStillManagesUsers(ctx)
  return accessUser(ctx, ids)
}

export async function listUsers(ctx: RequestContext, query: ListQuery): Promise<PageResult<User>> {
  assertUnrestricted(ctx.actor)
  const rows = await repo.listAccountUsers(ctx.db, ctx.actor.accountId, query)
  return { ...rows, data: await toUsers(ctx.db, rows.data) }
}

export async function getUser(ctx: RequestContext, ids: { username: string }): Promise<User> {
  return toFullUser(ctx.db, await accessUser(ctx, ids))
}

const userEntity = (user: UserRow): EventEntity => ({
  type: 'user',
  id: user.id,
  label: user.username,
  url: `/v4/account/users/${user.username}`,
})

/** Account events for user changes; only unrestricted users (who alone manage users) see them. */
function recordUserEvent(ctx: RequestContext, action: EventAction, user: UserRow): Promise<number> {
  const event = buildEvent(
    ctx.actor,
    action,
    { entity: userEntity(user), grant: null },
    nowTimestamp(ctx.clock),
  )
  return recordEvent(ctx.db, event)
}

export async function createUser(
  ctx: RequestContext,
  input: { username: string; email: string; restricted: boolean },
): Promise<User> {
  assertUnrestricted(ctx.actor)
  return inContextTransaction(ctx, async (tx) => {
    const user = await addUser(tx.db, tx.clock, tx.actor.accountId, input)
    await recordUserEvent(tx, 'user_create', user)
    return toUser(user)
  })
}

export async function updateUser(
  ctx: RequestContext,
  ids: { username: string },
  input: { username?: string; email?: string; restricted?: boolean },
): Promise<User> {
  assertUnrestricted(ctx.actor)
  return inContextTransaction(ctx, async (tx) => {
    const row = await lockUserToChange(tx, ids)
    const changes = {
      ...(input.username !== undefined && { username: input.username }),
      ...(input.email !== undefined && { email: input.email }),
      ...(input.restricted !== undefined && { restricted: input.restricted }),
    }
    if (Object.keys(changes).length === 0) return toFullUser(tx.db, row)
    if (input.username !== undefined && input.username !== row.username) {
      if ((await repo.findUserByUsername(tx.db, input.username)) !== undefined) throw usernameTaken()
    }
    if (input.restricted === true && !row.restricted) {
      await assertNotLastUnrestricted(tx, row)
      await ensureGlobalGrants(tx.db, row.id)
    }
    if (input.restricted === false && row.restricted) await deleteAllGrants(tx.db, row.id)
    try {
      const updated = await repo.updateUser(tx.db, row.id, changes)
      await recordUserEvent(tx, 'user_update', updated)
      return toFullUser(tx.db, updated)
    } catch (error) {
      if (isUniqueViolation(error)) throw usernameTaken()
      throw error
    }
  })
}

export async function deleteUser(ctx: RequestContext, ids: { username: string }): Promise<void> {
  assertUnrestricted(ctx.actor)
  await inContextTransaction(ctx, async (tx) => {
    const row = await lockUserToChange(tx, ids)
    if (row.id === tx.actor.user.id) throw badRequest('You cannot delete your own user', 'username')
    await assertNotLastUnrestricted(tx, row)
    await repo.deleteUser(tx.db, row.id)
    await recordUserEvent(tx, 'user_delete', row)
  })
}

/**
 * Re-checks the acting user under the account lock: two administrators removing each other at
 * the same moment must not both succeed.
 */
async function assertStillManagesUsers(ctx: RequestContext): Promise<void> {
  const current = await repo.findUserById(ctx.db, ctx.actor.user.id)
  if (current === undefined) throw invalidToken()
  if (current.restricted) throw forbidden()
}

/** An account always keeps one unrestricted user, or nobody could manage it. */
async function assertNotLastUnrestricted(ctx: RequestContext, row: UserRow): Promise<void> {
  if (row.restricted) return
  if ((await repo.countUnrestrictedUsers(ctx.db, ctx.actor.accountId)) <= 1) {
    throw badRequest('The account must keep at least one unrestricted user', 'restricted')
  }
}

/** Adds a user to an account; restricted users start with no grants at all. */
export async function addUser(
  db: Db,
  clock: Clock,
  accountId: number,
  user: { username: string; email: string; restricted: boolean },
): Promise<UserRow> {
  if ((await repo.findUserByUsername(db, user.username)) !== undefined) throw usernameTaken()
  try {
    const row = await repo.insertUser(db, {
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

/** A new account with its first, unrestricted user (CLI `account create` and the first start). */
export async function createAccountWithOwner(
  db: Db,
  clock: Clock,
  owner: { username: string; email: string },
): Promise<{ account: AccountRow; user: UserRow }> {
  return inTransaction(db, async (trx) => {
    const account = await createAccount(trx, clock)
    const user = await addUser(trx, clock, account.id, { ...owner, restricted: false })
    return { account, user }
  })
}

/**
 * For the profile, which owns these settings of the acting user's own row: every write there
 * goes through here, so the users table has one home.
 */
export const lockUser = (db: Db, userId: number): Promise<void> => repo.lockUser(db, userId)

export const updateUserSettings = (db: Db, userId: number, values: UserRowUpdate): Promise<UserRow> =>
  repo.updateUser(db, userId, values)

/** Whether the user has two-factor on now (read under their lock: the actor's copy may be older). */
export const hasTwoFactorOn = async (db: Db, userId: number): Promise<boolean> =>
  (await repo.findUserById(db, userId))?.two_factor_auth === true

export const setTwoFactorFlag = (db: Db, userId: number, enabled: boolean): Promise<void> =>
  repo.setTwoFactorFlag(db, userId, enabled)

export const setVerifiedPhoneNumber = (db: Db, userId: number, phoneNumber: string | null): Promise<void> =>
  repo.setVerifiedPhoneNumber(db, userId, phoneNumber)

export const findVerifiedPhoneNumber = (db: Db, userId: number): Promise<string | null> =>
  repo.findVerifiedPhoneNumber(db, userId)
