import { badRequest, forbidden, invalidToken, notFound } from '../../common/errors.ts'
import type { PageRequest } from '../../common/pagination.ts'
import type { PageResult } from '../../common/schemas.ts'
import { type Clock, nowTimestamp } from '../../common/time.ts'
import type { Db } from '../../db/connect.ts'
import { isUniqueViolation } from '../../db/dialects/dialect.ts'
import { inTransaction } from '../../db/transaction.ts'
import { lockAccount } from '../accounts/accounts.repository.ts'
import { addUser, usernameTaken } from '../accounts/accounts.service.ts'
import type { Actor } from '../auth/actor.ts'
import { type NewEvent, recordEvent } from '../events/events.repository.ts'
import { assertUnrestricted } from '../grants/authorize.ts'
import { deleteAllGrants, ensureGlobalGrants } from '../grants/grants.repository.ts'
import { findLastLogins } from '../profile/logins/logins.repository.ts'
import { listSshKeyLabels } from '../profile/ssh-keys/ssh-keys.repository.ts'
import * as repo from './users.repository.ts'
import type { User } from './users.schemas.ts'
import type { UserRow } from './users.table.ts'

/** What the user row does not hold: SSH key labels and the latest login attempt (profile tables). */
export interface UserProfileData {
  sshKeys: string[]
  lastLogin: { datetime: string; status: string } | undefined
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

/** A user of the actor's account (another account's users are not found). */
export async function getAccountUserRow(db: Db, actor: Actor, username: string): Promise<UserRow> {
  const row = await repo.findAccountUser(db, actor.accountId, username)
  if (row === undefined) throw notFound()
  return row
}

export async function listUsers(db: Db, actor: Actor, page: PageRequest): Promise<PageResult<User>> {
  assertUnrestricted(actor)
  const rows = await repo.listAccountUsers(db, actor.accountId, page)
  return { ...rows, data: await toUsers(db, rows.data) }
}

export async function getUser(db: Db, actor: Actor, username: string): Promise<User> {
  assertUnrestricted(actor)
  return toFullUser(db, await getAccountUserRow(db, actor, username))
}

/** Account events for user changes; only unrestricted users (who alone manage users) see them. */
function userEvent(actor: Actor, action: string, user: UserRow, created: string): NewEvent {
  return {
    accountId: actor.accountId,
    user: { id: actor.user.id, username: actor.user.username },
    action,
    entity: { type: 'user', id: user.id, label: user.username, url: `/v4/account/users/${user.username}` },
    grant: null,
    created,
  }
}

export async function createUser(
  db: Db,
  clock: Clock,
  actor: Actor,
  input: { username: string; email: string; restricted: boolean },
): Promise<User> {
  assertUnrestricted(actor)
  return inTransaction(db, async (trx) => {
    const user = await addUser(trx, clock, actor.accountId, input)
    await recordEvent(trx, userEvent(actor, 'user_create', user, nowTimestamp(clock)))
    return toUser(user)
  })
}

export async function updateUser(
  db: Db,
  clock: Clock,
  actor: Actor,
  username: string,
  input: { username?: string; email?: string; restricted?: boolean },
): Promise<User> {
  assertUnrestricted(actor)
  return inTransaction(db, async (trx) => {
    await lockAccount(trx, actor.accountId)
    await assertStillManagesUsers(trx, actor)
    const row = await getAccountUserRow(trx, actor, username)
    const changes = {
      ...(input.username !== undefined && { username: input.username }),
      ...(input.email !== undefined && { email: input.email }),
      ...(input.restricted !== undefined && { restricted: input.restricted }),
    }
    if (Object.keys(changes).length === 0) return toFullUser(trx, row)
    if (input.username !== undefined && input.username !== row.username) {
      if ((await repo.findUserByUsername(trx, input.username)) !== undefined) throw usernameTaken()
    }
    if (input.restricted === true && !row.restricted) {
      await assertNotLastUnrestricted(trx, actor, row)
      await ensureGlobalGrants(trx, row.id)
    }
    if (input.restricted === false && row.restricted) await deleteAllGrants(trx, row.id)
    try {
      const updated = await repo.updateUser(trx, row.id, changes)
      await recordEvent(trx, userEvent(actor, 'user_update', updated, nowTimestamp(clock)))
      return toFullUser(trx, updated)
    } catch (error) {
      if (isUniqueViolation(error)) throw usernameTaken()
      throw error
    }
  })
}

export async function deleteUser(db: Db, clock: Clock, actor: Actor, username: string): Promise<void> {
  assertUnrestricted(actor)
  await inTransaction(db, async (trx) => {
    await lockAccount(trx, actor.accountId)
    await assertStillManagesUsers(trx, actor)
    const row = await getAccountUserRow(trx, actor, username)
    if (row.id === actor.user.id) throw badRequest('You cannot delete your own user', 'username')
    await assertNotLastUnrestricted(trx, actor, row)
    await repo.deleteUser(trx, row.id)
    await recordEvent(trx, userEvent(actor, 'user_delete', row, nowTimestamp(clock)))
  })
}

/**
 * Re-checks the acting user under the account lock: two administrators removing each other at
 * the same moment must not both succeed.
 */
async function assertStillManagesUsers(db: Db, actor: Actor): Promise<void> {
  const current = await repo.findUserById(db, actor.user.id)
  if (current === undefined) throw invalidToken()
  if (current.restricted) throw forbidden()
}

/** An account always keeps one unrestricted user, or nobody could manage it. */
async function assertNotLastUnrestricted(db: Db, actor: Actor, row: UserRow): Promise<void> {
  if (row.restricted) return
  if ((await repo.countUnrestrictedUsers(db, actor.accountId)) <= 1) {
    throw badRequest('The account must keep at least one unrestricted user', 'restricted')
  }
}
